import Foundation

/// A response whose head has arrived and whose body is read as it arrives, from
/// ``ApiSession/stream(_:limits:bufferLimit:)``.
public struct StreamedResponse: Sendable {
    /// The response head.
    public let head: ResponseHead
    /// The body, in pieces as they arrive.
    public let body: ResponseBodyStream

    /// The status code.
    public var statusCode: Int { head.statusCode }

    /// The response's header fields.
    public var headers: Headers { head.headers }

    /// The body's lines, as text.
    public var lines: ResponseLines { ResponseLines(body) }

    /// Creates a streamed response; for transports' and stubs' tests.
    public init(head: ResponseHead, body: ResponseBodyStream) {
        self.head = head
        self.body = body
    }
}
