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

    /// The next message, or ``WebSocketEvent/closed(_:)`` with the code and reason of the close frame
    /// the server sent once the connection is closed (then again at every call). Never
    /// ``WebSocketEvent/reconnected(attempt:)``.
    ///
    /// A failure the engine finds itself (``WebSocketError/messageTooLarge(limit:)``, a protocol error)
    /// is thrown once; later calls tell how the connection then ended, as above: the server's close
    /// frame, or ``WebSocketError/connectionLost`` when none came.
    /// - Throws: ``WebSocketError/connectionLost`` when the connection ends without a close frame,
    ///   ``WebSocketError/messageTooLarge(limit:)``, or another ``WebSocketError``.
    func receive() async throws -> WebSocketEvent

    /// Sends a ping and returns when its pong arrives.
    /// - Throws: A ``WebSocketError`` when the connection closes first.
    func ping() async throws

    /// Sends a close frame with `closure`'s code and reason unless one was sent, and returns once the
    /// connection has ended: when the server's close frame has come, or when
    /// ``WebSocketOptions/closeTimeout`` has passed without it and the connection was cut. Returns at
    /// once when the connection has ended already.
    func close(_ closure: WebSocketClosure) async
}
