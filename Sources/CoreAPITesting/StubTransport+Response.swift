public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension StubTransport {
    /// A canned reply of a ``StubServer``: a status, headers and a body, or a transport failure, optionally
    /// after a delay.
    public struct Response: Sendable {
        /// The HTTP status code.
        public var statusCode: Int
        /// The response header fields.
        public var headers: Headers
        /// The body.
        public var body: Data
        /// How long to wait before answering; none by default.
        public var delay: Duration
        /// A transport failure to report instead of a response, as a `URLError` code.
        public var failure: URLError.Code?

        /// Creates a reply.
        public init(
            statusCode: Int = 200,
            headers: Headers = Headers(),
            body: Data = Data(),
            delay: Duration = .zero,
            failure: URLError.Code? = nil
        ) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
            self.delay = delay
            self.failure = failure
        }

        /// A JSON reply with `Content-Type: application/json`.
        public static func json(
            _ text: String,
            statusCode: Int = 200,
            headers: Headers = Headers()
        ) -> StubTransport.Response {
            StubTransport.Response(
                statusCode: statusCode,
                headers: Headers(["Content-Type": "application/json"]).merging(headers),
                body: Data(text.utf8)
            )
        }

        /// A JSON reply encoding `value` with sorted keys.
        /// - Throws: the encoder's error.
        public static func json(encoding value: some Encodable, statusCode: Int = 200) throws -> StubTransport.Response
        {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return StubTransport.Response(
                statusCode: statusCode,
                headers: ["Content-Type": "application/json"],
                body: try encoder.encode(value)
            )
        }

        /// A UTF-8 text reply with `Content-Type: text/plain; charset=utf-8`.
        public static func text(_ text: String, statusCode: Int = 200) -> StubTransport.Response {
            StubTransport.Response(
                statusCode: statusCode,
                headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data(text.utf8)
            )
        }

        /// A reply with only a status code.
        public static func status(_ statusCode: Int) -> StubTransport.Response {
            StubTransport.Response(statusCode: statusCode)
        }

        /// A transport failure, such as `.notConnectedToInternet` or `.timedOut`.
        public static func failure(_ code: URLError.Code) -> StubTransport.Response {
            StubTransport.Response(failure: code)
        }

        /// The reply answered after `delay`.
        public func delayed(by delay: Duration) -> StubTransport.Response {
            var copy = self
            copy.delay = delay
            return copy
        }
    }
}

extension StubTransport {
    /// A request a ``StubServer`` or a ``StubTransport`` received.
    public struct RecordedRequest: Sendable, Hashable {
        /// The HTTP method.
        public var method: HTTPMethod
        /// The full URL, query included.
        public var url: URL
        /// The header fields, without the stub's own routing header.
        public var headers: Headers
        /// The body: for a ``StubTransport`` every body, a file-streamed one included; for a ``StubServer``
        /// a body sent as data, and on Linux, where ``/CoreAPI/URLSessionTransport`` hands every body to `URLSession`
        /// as a stream, a file's too.
        public var body: Data?

        /// The body as UTF-8 text, or `nil`.
        public var bodyText: String? {
            body.map { String(decoding: $0, as: UTF8.self) }
        }
    }
}

extension StubTransport.RecordedRequest {
    /// The record of `request` as a stub transport received it: its header fields sorted by name
    /// (ignoring case), so tests compare them in a fixed order.
    init(_ request: ApiRequest, url: URL, body: Data?) {
        self.init(
            method: request.method,
            url: url,
            headers: Headers(request.headers.sorted { $0.name.lowercased() < $1.name.lowercased() }),
            body: body
        )
    }
}
