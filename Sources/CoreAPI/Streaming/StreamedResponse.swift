import Foundation

/// A response whose head has arrived and whose body is read as it arrives, from
/// ``ApiSession/stream(_:limits:bufferLimit:)``.
public struct StreamedResponse: Sendable {
    /// The response head.
    public let head: ResponseHead
    /// The body, in pieces as they arrive.
    public let body: StreamedResponse.Body

    /// The status code.
    public var statusCode: Int { head.statusCode }

    /// The response's header fields.
    public var headers: Headers { head.headers }

    /// The body's lines, as text.
    public var lines: StreamedResponse.Lines { StreamedResponse.Lines(body) }

    /// Creates a streamed response; for transports' and stubs' tests.
    public init(head: ResponseHead, body: StreamedResponse.Body) {
        self.head = head
        self.body = body
    }
}

extension StreamedResponse {
    /// Which of a method's limits apply to a response read as a stream.
    public enum Limits: Sendable, Hashable {
        /// The method's (else the session policy's) maximum response size counts every byte of the stream,
        /// and its deadline ends the whole stream: for a finite body such as a feed of records.
        case method
        /// No size limit and no deadline, for a stream that runs as long as the server sends (server-sent
        /// events, a live feed); the idle timeout still ends a stream on which nothing arrives.
        case unlimited
    }
}
