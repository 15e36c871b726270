extension WebSocket {
    /// One open WebSocket connection, as a transport's engine gives it: the seam under ``WebSocket``.
    ///
    /// A conforming type joins fragmented messages, answers pings with pongs, and never delivers a
    /// message larger than the ``WebSocket/Options/maximumMessageSize`` it was opened with: such a message
    /// closes the connection with ``WebSocket/CloseCode/messageTooBig`` and ``receive()`` throws
    /// ``WebSocket/Failure/messageTooLarge(limit:)``. ``WebSocket`` adds everything else — keep-alive,
    /// reconnection, cancellation, JSON — the same for every engine.
    public protocol Connection: Sendable {
        /// Sends one message.
        /// - Throws: ``WebSocket/Failure/closed(_:)`` once the connection is closed, or another
        ///   ``WebSocket/Failure``.
        func send(_ message: WebSocket.Message) async throws

        /// The next message, or ``WebSocket/Event/closed(_:)`` with the code and reason of the close frame
        /// the server sent once the connection is closed (then again at every call). Never
        /// ``WebSocket/Event/reconnected(attempt:)``.
        ///
        /// A failure the engine finds itself (``WebSocket/Failure/messageTooLarge(limit:)``, a protocol error)
        /// is thrown once; later calls tell how the connection then ended, as above: the server's close
        /// frame, or ``WebSocket/Failure/connectionLost`` when none came.
        /// - Throws: ``WebSocket/Failure/connectionLost`` when the connection ends without a close frame,
        ///   ``WebSocket/Failure/messageTooLarge(limit:)``, or another ``WebSocket/Failure``.
        func receive() async throws -> WebSocket.Event

        /// Sends a ping and returns when its pong arrives.
        /// - Throws: A ``WebSocket/Failure`` when the connection closes first.
        func ping() async throws

        /// Sends a close frame with `closure`'s code and reason unless one was sent, and returns once the
        /// connection has ended: when the server's close frame has come, or when
        /// ``WebSocket/Options/closeTimeout`` has passed without it and the connection was cut. Returns at
        /// once when the connection has ended already.
        func close(_ closure: WebSocket.Closure) async

        /// Fails the connection (RFC 6455 §7.1.7), as ``WebSocket`` does when a pong is late: sends a close
        /// frame with `closure`'s code and reason unless one was sent, without awaiting the server's, and
        /// ends the connection at once. Returns without waiting; a ``receive()`` or ``ping()`` waiting or to
        /// come then ends as for a connection lost without a close frame, unless the server's close frame
        /// had arrived before. Does nothing when the connection has ended already.
        func abort(_ closure: WebSocket.Closure)
    }
}
