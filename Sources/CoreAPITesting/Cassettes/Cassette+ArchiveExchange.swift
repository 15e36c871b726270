import CoreAPI
import Foundation

/// How an exchange becomes an entry, and an entry's bodies become bytes again.
extension Cassette.Archive {
    /// A request as an archive keeps it, with its body as text or base64, or as a digest when it is
    /// longer than `bodyLimit`.
    static func request(_ request: ApiRequest, body: Data?, bodyLimit: Int) -> Request {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let mimeType = request.headers["Content-Type"] ?? ""
        let postData = body.flatMap { body -> PostData? in
            guard !body.isEmpty || request.body != .none else { return nil }
            let kept = keep(body, limit: bodyLimit)
            return PostData(mimeType: mimeType, text: kept.text, encoding: kept.encoding, sha256: kept.sha256)
        }
        return Request(
            method: request.method.rawValue,
            url: request.url.absoluteString,
            headers: request.headers.map { Field(name: $0.name, value: $0.value) },
            queryString: query.map { Field(name: $0.name, value: $0.value ?? "") },
            postData: postData,
            bodySize: body?.count ?? 0
        )
    }

    /// A response as an archive keeps it.
    static func response(_ head: ResponseHead, body: Data, chunkSizes: [Int]?, bodyLimit: Int) -> Response {
        let kept = keep(body, limit: bodyLimit)
        let content = Content(
            size: body.count,
            mimeType: head.headers["Content-Type"] ?? "",
            text: kept.text,
            encoding: kept.encoding,
            sha256: kept.sha256,
            chunkSizes: chunkSizes.flatMap { $0.count > 1 ? $0 : nil }
        )
        return Response(
            status: head.status.code,
            statusText: head.status.reasonPhrase,
            headers: head.headers.map { Field(name: $0.name, value: $0.value) },
            content: content,
            redirectURL: head.headers["Location"] ?? ""
        )
    }

    /// The SHA-256 of `data` in lower-case hexadecimal, as a kept digest is written.
    static func sha256(of data: Data) -> String {
        SHA256.digest(of: data).map { String(format: "%02x", $0) }.joined()
    }

    /// A body as text when it is UTF-8 without NUL, else as base64; a digest when it is over `limit`.
    private static func keep(_ body: Data, limit: Int) -> (text: String?, encoding: String?, sha256: String?) {
        if body.count > limit {
            return (nil, nil, sha256(of: body))
        }
        if !body.contains(0), let text = String(data: body, encoding: .utf8) {
            return (text, nil, nil)
        }
        return (body.base64EncodedString(), "base64", nil)
    }
}

extension Cassette.Archive.Timings {
    /// Timings from the phases a transport measured, in milliseconds; `send`, `wait` and `receive` are `0`
    /// when unknown, as HAR requires them.
    init(_ phases: ResponseTiming.Phases?) {
        let milliseconds = { (duration: Duration) -> Double in
            let (seconds, attoseconds) = duration.components
            return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
        }
        let length = { (range: Range<Duration>?) in range.map { milliseconds($0.upperBound - $0.lowerBound) } }
        var wait = 0.0
        if let request = phases?.request, let response = phases?.response {
            wait = max(0, milliseconds(response.lowerBound - request.upperBound))
        }
        self.init(
            blocked: -1,
            dns: length(phases?.domainLookup) ?? -1,
            connect: length(phases?.connection) ?? -1,
            send: length(phases?.request) ?? 0,
            wait: wait,
            receive: length(phases?.response) ?? 0,
            ssl: length(phases?.secureConnection) ?? -1
        )
    }

    /// The sum of the known phases, in milliseconds: an entry's `time`.
    var total: Double {
        [blocked, dns, connect, send, wait, receive].compactMap { $0 }.filter { $0 > 0 }.reduce(0, +)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

extension Cassette.Archive.Request {
    /// The body's bytes: the text (decoded from base64 when marked so), or the form parameters joined
    /// when an exporter kept only those; empty when there is no body; `nil` when only a digest is kept.
    /// - Throws: A reason, when the text is marked base64 and is not.
    func bodyData() throws(Cassette.Archive.BodyFailure) -> Data? {
        guard let postData else { return Data() }
        if let text = postData.text {
            return try Cassette.Archive.decode(text, encoding: postData.encoding)
        }
        if postData.sha256 != nil { return nil }
        let pairs = (postData.params ?? []).map { field in
            Self.formEncoded(field.name) + "=" + Self.formEncoded(field.value)
        }
        return Data(pairs.joined(separator: "&").utf8)
    }

    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(
            of: "%20",
            with: "+"
        )
    }

    /// The URL's path and its query's pairs, from ``url``.
    var parsedURL: URLComponents? {
        URLComponents(string: url)
    }
}

extension Cassette.Archive.Content {
    /// The body's bytes: the text, decoded from base64 when marked so; empty when no text was kept;
    /// `nil` when only a digest is kept.
    /// - Throws: A reason, when the text is marked base64 and is not.
    func bodyData() throws(Cassette.Archive.BodyFailure) -> Data? {
        guard let text else { return sha256 == nil ? Data() : nil }
        if encoding == nil, let bytes = latin1Bytes(of: text) {
            return bytes
        }
        return try Cassette.Archive.decode(text, encoding: encoding)
    }

    /// The bytes of a body an exporter turned into text one byte per character (as mitmproxy does for a
    /// binary body it takes for text): every character below U+0100, some above U+007F, and as many of
    /// them as ``size`` says there are bytes — which their UTF-8 is not.
    private func latin1Bytes(of text: String) -> Data? {
        let scalars = text.unicodeScalars
        guard size == scalars.count, size != text.utf8.count,
            scalars.allSatisfy({ $0.value < 0x100 })
        else { return nil }
        return Data(scalars.map { UInt8($0.value) })
    }
}

extension Cassette.Archive {
    /// Why a kept body cannot be read.
    struct BodyFailure: Error {
        let reason: String
    }

    fileprivate static func decode(_ text: String, encoding: String?) throws(BodyFailure) -> Data {
        guard let encoding, !encoding.isEmpty else { return Data(text.utf8) }
        guard encoding.lowercased() == "base64" else {
            throw BodyFailure(reason: "the body's encoding \"\(encoding)\" is not base64")
        }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw BodyFailure(reason: "the body is marked base64 but is not")
        }
        return data
    }
}
