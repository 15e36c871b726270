import Foundation

/// One HTTP/1.1 request as the conformance server read it off the wire: the request line, the header
/// fields in order and the body's bytes, de-chunked.
struct ReceivedRequest: Sendable {
    /// How the body was framed.
    enum Framing: String, Codable, Sendable {
        case none, length, chunked
    }

    var method: String
    /// The request target as sent: path and raw query.
    var target: String
    var fields: [[String]]
    var body: [UInt8]
    var framing: Framing

    /// The target's path, without the query.
    var path: String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// The raw query, `nil` when the target has none.
    var query: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? String(parts[1]) : nil
    }

    /// The value of the first field named `name`, case-insensitively.
    func value(of name: String) -> String? {
        fields.first { $0[0].lowercased() == name.lowercased() }?[1]
    }

    /// The number a query parameter holds, or `defaultValue`.
    func number(_ name: String, _ defaultValue: Int) -> Int {
        parameter(name).flatMap { Int($0) } ?? defaultValue
    }

    /// A query parameter's raw value.
    func parameter(_ name: String) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count == 2 ? String(parts[1]) : "" }
        }
        return nil
    }
}

/// Reads requests off one connection, keeping what arrived past the end of one for the next.
struct RequestReader {
    /// The largest head read.
    static let maximumHeadSize = 64 * 1024

    let socket: LoopbackSocket
    /// The server's stop signal.
    let wake: Int32
    private var buffer: [UInt8] = []

    init(socket: LoopbackSocket, wake: Int32) {
        self.socket = socket
        self.wake = wake
    }

    /// The next request, or `nil` when the peer closed, the server stops or the request is unreadable.
    /// Answers `Expect: 100-continue` before reading the body.
    mutating func next() -> ReceivedRequest? {
        guard let headEnd = fill(limit: Self.maximumHeadSize, until: { Self.headEnd(in: $0) }) else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var request = ReceivedRequest(
            method: String(requestLine[0]),
            target: String(requestLine[1]),
            fields: [],
            body: [],
            framing: .none
        )
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            request.fields.append([String(line[..<colon]), value])
        }
        if request.value(of: "Expect")?.lowercased() == "100-continue" {
            socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if request.value(of: "Transfer-Encoding")?.lowercased() == "chunked" {
            guard let body = readChunks() else { return nil }
            request.body = body
            request.framing = .chunked
        } else if let length = request.value(of: "Content-Length").flatMap({ Int($0) }) {
            guard fill(until: { $0.count >= length ? length : nil }) != nil else { return nil }
            request.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
            request.framing = .length
        }
        return request
    }

    /// A chunked body's bytes, its trailer skipped.
    private mutating func readChunks() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let lineEnd = fill(until: { Self.lineEnd(in: $0) }) else { return nil }
            let line = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
            buffer.removeFirst(lineEnd + 2)
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: [" "]), radix: 16) else { return nil }
            if size == 0 {
                while true {
                    guard let end = fill(until: { Self.lineEnd(in: $0) }) else { return nil }
                    buffer.removeFirst(end + 2)
                    if end == 0 { return body }
                }
            }
            guard fill(until: { $0.count >= size + 2 ? size : nil }) != nil else { return nil }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }

    /// Reads until `found` finds what it looks for in the buffer, and returns what it found; `nil` at
    /// the peer's close, the server's stop, or when `limit` bytes did not hold it.
    private mutating func fill(limit: Int = .max, until found: ([UInt8]) -> Int?) -> Int? {
        while true {
            if let index = found(buffer) { return index }
            guard buffer.count <= limit else { return nil }
            guard socket.wait(wake: wake) == .readable else { return nil }
            let bytes = socket.receive()
            if bytes.isEmpty { return nil }
            buffer += bytes
        }
    }

    /// Where the head's closing blank line starts.
    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Where the first line's CRLF starts.
    static func lineEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0...(bytes.count - 2) where bytes[index] == 13 && bytes[index + 1] == 10 {
            return index
        }
        return nil
    }
}
