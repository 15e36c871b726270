import Foundation

/// The routes of the conformance server. Each answers on the connection it was read from and says
/// whether the connection stays open for the next request.
///
/// | route | answer |
/// | --- | --- |
/// | `/echo…` | `200`, an ``EchoReport`` of the request as JSON (no body to `HEAD`) |
/// | `/respond?status=N` | status N, ``respondFields`` and ``respondBody`` (no body to `HEAD`, `204`, `304`) |
/// | `/chunked?pieces=N&size=S&ms=M` | N chunks of S bytes of ``pattern(count:seed:)``, M ms apart |
/// | `/trickle?bytes=N&ms=M` | `Content-Length: N`, one byte every M ms |
/// | `/large?bytes=N&framing=length\|chunked` | N bytes of ``pattern(count:seed:)`` |
/// | `/stall?phase=head\|body` | nothing, or a head and 10 of 100 bytes; then ``stallSeconds`` of silence |
/// | `/close-after-head` | `Content-Length: 1000`, 100 bytes, then the connection closes |
/// | `/garbage` | the status line `HTTP/1.1 abc`, then the connection closes |
/// | `/redirect?status=S&to=same\|other&path=P` | status S to P on this origin or the other one |
/// | `/no-content` | `204` |
extension ConformanceServer {
    /// The header fields `/respond` answers with, besides `Content-Length`: a repeated name among them.
    static let respondFields: [(String, String)] = [
        ("Content-Type", "application/octet-stream"),
        ("X-Conformance-Single", "one"),
        ("X-Conformance-Repeated", "first"),
        ("X-Conformance-Repeated", "second, with a comma"),
    ]

    /// The body `/respond` answers with: every byte value, 64 times over.
    static let respondBody: [UInt8] = pattern(count: 16 * 1024, seed: 0)

    /// `count` bytes that differ from `seed` to `seed`: what the body routes send, and what a request
    /// body the cases send is made of.
    static func pattern(count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ $0 / 256 &* 7 &+ seed) }
    }

    /// Answers `request`; `false` when the connection must close.
    func respond(to request: ReceivedRequest, on connection: LoopbackSocket, port: Int) -> Bool {
        let isHead = request.method == "HEAD"
        switch request.path {
        case let path where path.hasPrefix("/echo"):
            let body = (try? JSONEncoder().encode(EchoReport(request, port: port))).map { Array($0) } ?? []
            let head = Self.head(200, [("Content-Type", "application/json"), ("Content-Length", "\(body.count)")])
            return connection.send(head + (isHead ? [] : body))
        case "/respond":
            let status = request.number("status", 200)
            let hasBody = !isHead && status != 204 && status != 304
            var fields = Self.respondFields
            if status != 204 && status != 304 {
                fields.append(("Content-Length", "\(Self.respondBody.count)"))
            }
            return connection.send(Self.head(status, fields) + (hasBody ? Self.respondBody : []))
        case "/no-content":
            return connection.send(Self.head(204, []))
        case "/chunked":
            return sendChunks(request, on: connection)
        case "/trickle":
            let count = request.number("bytes", 100)
            let interval = request.number("ms", 200)
            guard connection.send(Self.head(200, [("Content-Length", "\(count)")])) else { return false }
            for index in 0..<count {
                guard index == 0 || pause(milliseconds: interval, watching: connection) else { return false }
                guard connection.send([UInt8(ascii: "x")]) else { return false }
            }
            return true
        case "/large":
            return sendLarge(request, on: connection)
        case "/stall":
            if request.parameter("phase") == "body" {
                let head = Self.head(200, [("Content-Length", "100")])
                guard connection.send(head + Self.pattern(count: 10, seed: 0)) else { return false }
            }
            _ = pause(milliseconds: Self.stallSeconds * 1000, watching: connection)
            return false
        case "/close-after-head":
            let head = Self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", "1000")])
            connection.send(head + Self.pattern(count: 100, seed: 0))
            return false
        case "/garbage":
            connection.send(Array("HTTP/1.1 abc\r\n".utf8))
            return false
        case "/redirect":
            let origin = request.parameter("to") == "other" ? otherBaseURL : baseURL
            let target = origin + (request.parameter("path") ?? "/echo")
            let body = Array("redirected".utf8)
            let fields = [("Location", target), ("Content-Length", "\(body.count)")]
            return connection.send(Self.head(request.number("status", 302), fields) + (isHead ? [] : body))
        default:
            return connection.send(Self.head(404, [("Content-Length", "0")]))
        }
    }

    /// Waits `milliseconds`, or less when the server stops or the peer sends or closes; `false` unless
    /// the whole time passed.
    func pause(milliseconds: Int, watching connection: LoopbackSocket) -> Bool {
        connection.wait(wake: wakeRead, milliseconds: Int32(milliseconds)) == .timedOut
    }

    private func sendChunks(_ request: ReceivedRequest, on connection: LoopbackSocket) -> Bool {
        let pieces = request.number("pieces", 4)
        let size = request.number("size", 1000)
        let interval = request.number("ms", 0)
        let fields = [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")]
        guard connection.send(Self.head(200, fields)) else { return false }
        let body = Self.pattern(count: pieces * size, seed: 0)
        for index in 0..<pieces {
            guard index == 0 || interval == 0 || pause(milliseconds: interval, watching: connection) else {
                return false
            }
            let piece = Array(String(size, radix: 16).utf8) + [13, 10] + body[index * size..<(index + 1) * size]
            guard connection.send(piece + [13, 10]) else { return false }
        }
        return connection.send(Array("0\r\n\r\n".utf8))
    }

    private func sendLarge(_ request: ReceivedRequest, on connection: LoopbackSocket) -> Bool {
        let count = request.number("bytes", 1024 * 1024)
        let chunked = request.parameter("framing") == "chunked"
        let framing = chunked ? ("Transfer-Encoding", "chunked") : ("Content-Length", "\(count)")
        guard connection.send(Self.head(200, [("Content-Type", "application/octet-stream"), framing])) else {
            return false
        }
        let body = Self.pattern(count: count, seed: 0)
        var start = 0
        while start < count {
            let piece = Array(body[start..<min(start + 64 * 1024, count)])
            start += piece.count
            let bytes = chunked ? Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10] : piece
            guard connection.send(bytes) else { return false }
        }
        return !chunked || connection.send(Array("0\r\n\r\n".utf8))
    }

    /// A response head: the status line with its reason phrase, `fields` in order, the blank line.
    static func head(_ status: Int, _ fields: [(String, String)]) -> [UInt8] {
        let reasons = [
            200: "OK", 201: "Created", 204: "No Content", 302: "Found", 304: "Not Modified",
            307: "Temporary Redirect", 404: "Not Found",
        ]
        var text = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n"
        for (name, value) in fields {
            text += "\(name): \(value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }
}
