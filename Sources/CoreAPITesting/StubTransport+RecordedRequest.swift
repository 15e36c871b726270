public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
