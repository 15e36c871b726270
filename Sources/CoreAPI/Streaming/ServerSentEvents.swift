/// The events of a server-sent event stream, from ``ApiSession/events(_:reconnection:)``, in order.
///
/// Iterate it once; leaving the loop, or dropping the sequence, cancels the call. It ends when the stream
/// ends and is not opened again, and throws the ``ApiError`` that ended it otherwise.
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
