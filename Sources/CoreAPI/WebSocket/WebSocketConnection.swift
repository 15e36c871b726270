/// One open WebSocket connection, as a transport's engine gives it: the seam under ``WebSocket``.
///
/// A conforming type joins fragmented messages, answers pings with pongs, and never delivers a
/// message larger than the ``WebSocketOptions/maximumMessageSize`` it was opened with: such a message
/// closes the connection with ``WebSocketCloseCode/messageTooBig`` and ``receive()`` throws
/// ``WebSocketError/messageTooLarge(limit:)``. ``WebSocket`` adds everything else — keep-alive,
/// reconnection, cancellation, JSON — the same for every engine.
public protocol WebSocketConnection: Sendable {
    /// Sends one message.
    /// - Throws: ``WebSocketError/closed(_:)`` once the connection is closed, or another
    ///   ``WebSocketError``.
    func send(_ message: WebSocketMessage) async throws

    /// The next message, or ``WebSocketEvent/closed(_:)`` with the close frame's code and reason once
    /// the connection is closed (then again at every call). Never ``WebSocketEvent/reconnected(attempt:)``.
    /// - Throws: ``WebSocketError/connectionLost`` when the connection ends without a close frame,
    ///   ``WebSocketError/messageTooLarge(limit:)``, or another ``WebSocketError``.
    func receive() async throws -> WebSocketEvent

    /// Sends a ping and returns when its pong arrives.
    /// - Throws: A ``WebSocketError`` when the connection closes first.
    func ping() async throws

    /// Sends a close frame with `closure`'s code and reason, when the connection is still open, and ends
    /// the connection once the server answers or after a short wait; returns at once when it is closed.
    func close(_ closure: WebSocketClosure) async
}
