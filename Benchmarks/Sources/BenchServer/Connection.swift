#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fixed body of every answer except uploads, `/bytes/N` and `/notes/`: a tiny JSON object.
let staticBody = Array(#"{"id":1,"name":"Ada","active":true}"#.utf8)

/// The fixed body of every `GET /notes/...`: a note of the OpenAPI document the generated client of the
/// benchmarks comes from, as small as ``staticBody`` (36 bytes).
let noteBody = Array(#"{"id":1,"title":"Ada","tags":["on"]}"#.utf8)

/// A `200 OK` keep-alive answer with a JSON body.
///
/// The head carries the fields a conforming origin server sends with such an answer: `Date` (RFC 9110
/// section 6.6.1 requires it from a server with a clock), `Content-Type`, `Content-Length` and
/// `Connection`. Clients spend work on every header line, so a head without `Date` would be cheaper for
/// them than any real server's.
///
/// With `BENCH_SERVER_FIELDS=8` in its environment (a client process passes its own on to the server it
/// starts) the head carries the eight fields nginx sends with a static file instead: `Server`, `Date`,
/// `Content-Type`, `Content-Length`, `Last-Modified`, `Connection`, `ETag` and `Accept-Ranges`. A client's
/// work per field shows as the difference between the two.
func makeResponse(body: [UInt8], at time: time_t) -> [UInt8] {
    let head: String
    if sendsEightFields {
        head =
            "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: \(httpDate(time))\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Last-Modified: Thu, 26 Nov 2026 08:00:00 GMT\r\nConnection: keep-alive\r\n"
            + "ETag: \"6926b380-3d\"\r\nAccept-Ranges: bytes\r\n\r\n"
    } else {
        head =
            "HTTP/1.1 200 OK\r\nDate: \(httpDate(time))\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: keep-alive\r\n\r\n"
    }
    return Array(head.utf8) + body
}

/// Whether answers carry nginx's eight header fields (`BENCH_SERVER_FIELDS=8`) instead of four.
let sendsEightFields = getenv("BENCH_SERVER_FIELDS").map { String(cString: $0) } == "8"

private let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
private let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/// `time` as an HTTP date (IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`).
func httpDate(_ time: time_t) -> String {
    var time = time
    var parts = tm()
    gmtime_r(&time, &parts)
    func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(dayNames[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(monthNames[Int(parts.tm_mon)]) "
        + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):"
        + "\(twoDigits(parts.tm_sec)) GMT"
}

/// The parts of a request head the server needs.
struct RequestHead {
    /// The request method, such as `GET`.
    var method: Substring
    /// The request target, such as `/user`.
    var target: Substring
    /// The `Content-Length`, when given.
    var contentLength: Int?
    /// Whether the body comes in chunks.
    var isChunked = false
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue = false
    /// Whether the client asked to close the connection after this request.
    var closesConnection = false

    /// Parses a head (request line and header fields, without the blank line), or returns `nil`.
    init?(_ text: String) {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = (lines.first ?? "").split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        method = requestLine[0]
        target = requestLine[1]
        closesConnection = requestLine[2] == "HTTP/1.0"
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces().lowercased()
            switch name {
            case "content-length": contentLength = Int(value)
            case "transfer-encoding": isChunked = value.contains("chunked")
            case "expect": expectsContinue = value == "100-continue"
            case "connection": closesConnection = value == "close" || (closesConnection && value != "keep-alive")
            default: break
            }
        }
    }

    /// Whether this request asks for a note, answered with ``noteBody``.
    var isNote: Bool { method == "GET" && target.hasPrefix("/notes/") }

    /// Whether this request is an upload whose body size is reported back.
    var isUpload: Bool { method != "GET" && target.hasPrefix("/upload") }

    /// The body size a `GET /bytes/N` asks for, or `nil` for another request.
    var bytesRequested: Int? {
        guard method == "GET", target.hasPrefix("/bytes/") else { return nil }
        return Int(target.dropFirst("/bytes/".count))
    }
}

/// The piece a `/bytes/N` body is written in, again and again: 1 MiB whose byte i is i % 251.
let bytesPiece = (0..<(1 << 20)).map { UInt8($0 % 251) }

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

/// One client connection: reads requests one after another and answers each, until the client closes it.
struct Connection {
    /// The connected socket, closed when ``serve()`` returns.
    let socket: Int32
    /// Bytes read from the socket; those not consumed yet are `buffer[start..<end]`.
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// The first byte not consumed yet.
    private var start = 0
    /// One past the last byte read.
    private var end = 0
    /// The answers to a request that is not an upload (with ``staticBody`` and with ``noteBody``), and the
    /// second whose `Date` they carry: built again only when the second changes, so the server's own work
    /// per request stays small.
    private var staticAnswers: (second: time_t, user: [UInt8], note: [UInt8]) = (-1, [], [])

    /// A connection on `socket`.
    init(socket: Int32) {
        self.socket = socket
    }

    /// Answers requests until the client closes the connection or sends something unreadable.
    mutating func serve() {
        defer { close(socket) }
        while let text = readThrough(terminator: [13, 10, 13, 10]), let head = RequestHead(text) {
            if head.expectsContinue, !send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) { return }
            guard let received = readBody(of: head) else { return }
            let now = time(nil)
            if let size = head.bytesRequested {
                guard sendBytes(size, at: now), !head.closesConnection else { return }
                continue
            }
            let answer: [UInt8]
            if head.isUpload {
                answer = makeResponse(body: Array(#"{"received":\#(received)}"#.utf8), at: now)
            } else {
                if staticAnswers.second != now {
                    staticAnswers = (
                        now, makeResponse(body: staticBody, at: now), makeResponse(body: noteBody, at: now)
                    )
                }
                answer = head.isNote ? staticAnswers.note : staticAnswers.user
            }
            guard send(answer), !head.closesConnection else { return }
        }
    }

    /// Reads and discards the body of `head`; returns its length, or `nil` when the connection ended first.
    private mutating func readBody(of head: RequestHead) -> Int? {
        guard head.isChunked else {
            let length = head.contentLength ?? 0
            return discard(length) ? length : nil
        }
        var total = 0
        while true {
            guard let line = readThrough(terminator: [13, 10]) else { return nil }
            let digits = line.prefix { $0 != ";" }.trimmingSpaces()
            guard let size = Int(digits, radix: 16) else { return nil }
            if size == 0 {
                // Trailer fields, up to the blank line.
                while let trailer = readThrough(terminator: [13, 10]) {
                    if trailer.isEmpty { return total }
                }
                return nil
            }
            guard discard(size), readThrough(terminator: [13, 10]) != nil else { return nil }
            total += size
        }
    }

    /// The text up to `terminator` (which is consumed but not returned), or `nil` when the connection ends.
    private mutating func readThrough(terminator: [UInt8]) -> String? {
        var searched = start
        while true {
            if end - searched >= terminator.count {
                let limit = end - terminator.count
                while searched <= limit {
                    if buffer[searched] == terminator[0],
                        buffer[searched..<(searched + terminator.count)].elementsEqual(terminator)
                    {
                        let text = String(decoding: buffer[start..<searched], as: UTF8.self)
                        start = searched + terminator.count
                        return text
                    }
                    searched += 1
                }
            }
            let offset = searched - start
            guard fill() else { return nil }
            searched = start + offset
        }
    }

    /// Consumes `count` body bytes, reading as needed; `false` when the connection ends first.
    private mutating func discard(_ count: Int) -> Bool {
        var remaining = count
        while remaining > 0 {
            if start == end, !fill() { return false }
            let taken = min(remaining, end - start)
            start += taken
            remaining -= taken
        }
        return true
    }

    /// Reads more bytes after the unconsumed ones; `false` at the end of the connection, on an error, or
    /// when the buffer is full of an unfinished head.
    private mutating func fill() -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count, start > 0 {
            buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
            end -= start
            start = 0
        }
        guard end < buffer.count else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                read(socket, bytes.baseAddress! + end, bytes.count - end)
            }
            if count > 0 {
                end += count
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }

    /// Answers with `size` bytes of `application/octet-stream`, written 1 MiB at a time: the writes block
    /// while the client reads no more, so a client that holds its reader back holds the server too.
    private func sendBytes(_ size: Int, at time: time_t) -> Bool {
        let head =
            "HTTP/1.1 200 OK\r\nDate: \(httpDate(time))\r\nContent-Type: application/octet-stream\r\n"
            + "Content-Length: \(size)\r\nConnection: keep-alive\r\n\r\n"
        guard send(Array(head.utf8)) else { return false }
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, bytesPiece.count)
            guard send(count == bytesPiece.count ? bytesPiece : Array(bytesPiece[0..<count])) else { return false }
            remaining -= count
        }
        return true
    }

    /// Writes all of `bytes`; `false` when the connection is gone.
    private func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(socket, raw.baseAddress! + sent, raw.count - sent)
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
