/// The events of a ``WebSocket``, in order, as an `AsyncSequence`: messages, reconnections, and last
/// ``WebSocketEvent/closed(_:)``. It throws ``WebSocketError`` for a failure the connection does not
/// survive, and ``ApiError/cancelled`` when the reading task is cancelled (which closes the connection).
public struct WebSocketEvents: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = WebSocketEvent

    let socket: WebSocket

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let socket: WebSocket

        /// The next event, or `nil` after the last.
        public mutating func next() async throws -> WebSocketEvent? {
            try await socket.nextEvent()
        }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(socket: socket)
    }
}
