#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A response whose head has arrived and whose body is read as it arrives, from
/// ``ApiSession/stream(_:limits:bufferLimit:)``.
public struct StreamedResponse: Sendable {
    /// The response head.
    public let response: HTTPURLResponse
    /// The body, in pieces as they arrive.
    public let body: ResponseBodyStream

    /// The status code.
    public var statusCode: Int { response.statusCode }

    /// The response's header fields.
    public var headers: Headers { Headers(httpURLResponse: response) }

    /// The body's lines, as text.
    public var lines: ResponseLines { ResponseLines(body) }

    /// Creates a streamed response; for transports' and stubs' tests.
    public init(response: HTTPURLResponse, body: ResponseBodyStream) {
        self.response = response
        self.body = body
    }
}
