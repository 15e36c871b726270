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
    public typealias Element = ServerSentEvents.Event

    private let events: AsyncThrowingStream<ServerSentEvents.Event, any Error>
    /// Ends the call when the reader leaves early.
    private let end: @Sendable () -> Void

    init(_ events: AsyncThrowingStream<ServerSentEvents.Event, any Error>, end: @escaping @Sendable () -> Void) {
        self.events = events
        self.end = end
    }

    /// Reads the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ServerSentEvents.Event, any Error>.AsyncIterator
        let lifetime: ReaderLifetime

        /// The next event, or `nil` at the end.
        /// - Throws: ``ApiError`` when the stream failed.
        public mutating func next() async throws -> ServerSentEvents.Event? {
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

extension ServerSentEvents {
    /// One event of a `text/event-stream` body (server-sent events), as the HTML standard's parsing rules
    /// dispatch it.
    public struct Event: Sendable, Hashable {
        /// The event type: the `event` field, `message` when the event has none.
        public var event: String
        /// The `data` fields, joined with line feeds.
        public var data: String
        /// The last event ID at this event: its own `id` field or the latest before it; `nil` when none
        /// was set (or it was set empty). Reconnecting sends it as `Last-Event-ID`.
        public var id: String?
        /// The reconnection time the stream last asked for with a `retry` field, in milliseconds.
        public var retry: Int?

        /// Creates an event.
        public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
            self.event = event
            self.data = data
            self.id = id
            self.retry = retry
        }
    }
}
