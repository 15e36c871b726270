import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The events of a server-sent event stream, from ``ApiSession/events(_:reconnection:)``, in order.
///
/// Iterate it once; leaving the loop, or dropping the sequence, cancels the call. It ends when the stream
/// ends and is not opened again, and throws the ``ApiError`` that ended it otherwise: among them
/// ``ApiError/unacceptableContentType(_:)`` for a response that is not `text/event-stream`.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    private let events: AsyncThrowingStream<ServerSentEvent, any Error>
    /// Ends the call when the reader leaves early.
    private let end: @Sendable () -> Void

    init(_ events: AsyncThrowingStream<ServerSentEvent, any Error>, end: @escaping @Sendable () -> Void) {
        self.events = events
        self.end = end
    }

    /// Reads the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ServerSentEvent, any Error>.AsyncIterator
        let lifetime: ReaderLifetime

        /// The next event, or `nil` at the end.
        /// - Throws: ``ApiError`` when the stream failed.
        public mutating func next() async throws -> ServerSentEvent? {
            do {
                return try await base.next()
            } catch {
                throw ApiError(error)
            }
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: events.makeAsyncIterator(), lifetime: ReaderLifetime(end: end))
    }
}

extension ServerSentEvents {
    /// The media type of a server-sent event stream.
    static let mediaType = "text/event-stream"

    /// Checks that `response` is a server-sent event stream, as `EventSource` does before it reads one: a
    /// body of another type (an HTML error page from a proxy, JSON) is not parsed as events.
    /// - Throws: ``ApiError/unacceptableContentType(_:)`` when its `Content-Type` (parameters aside) is
    ///   not `text/event-stream`, or missing; its ``ApiError/ContentTypeFailure/body`` is empty, the body
    ///   is not read.
    static func checkMediaType(of response: StreamedResponse) throws(ApiError) {
        let contentType = response.headers["Content-Type"]
        guard MediaType.matches(contentType, anyOf: [mediaType]) else {
            throw .unacceptableContentType(
                .init(contentType: contentType, acceptable: [mediaType], statusCode: response.statusCode)
            )
        }
    }
}
