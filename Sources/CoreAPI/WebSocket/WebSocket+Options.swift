extension WebSocket {
    /// The limits and keep-alive of one WebSocket connection.
    public struct Options: Sendable, Hashable {
        /// The largest message, in bytes, received or sent; a larger one arriving closes the connection with
        /// ``WebSocket/CloseCode/messageTooBig`` and is ``WebSocket/Failure/messageTooLarge(limit:)``. 16 MiB by
        /// default.
        public var maximumMessageSize: Int
        /// How often a ping is sent while the connection is open; `nil` for none. 30 seconds by default.
        public var pingInterval: Duration?
        /// How long a pong may take before the connection counts as dead: it is then failed at once — a close
        /// frame goes out, but the server's is not awaited (RFC 6455 §7.1.7) — and the reader gets
        /// ``WebSocket/Failure/pingTimeout`` (or a reconnection). 10 seconds by default.
        public var pingTimeout: Duration
        /// How long the opening handshake may take; the method's timeout, else the session's, when `nil`.
        public var handshakeTimeout: Duration?
        /// How long the closing handshake may take: once the client has sent its close frame (a call of
        /// ``WebSocket/close(_:reason:)``, a message over the size limit), the server's close frame is
        /// awaited this long before the connection is cut, and the closure is then
        /// ``WebSocket/CloseCode/abnormalClosure``. A ping timeout does not wait for it. 5 seconds by default.
        public var closeTimeout: Duration
        /// Whether and how the connection is opened again after it is lost; `nil` (off) by default.
        public var reconnection: WebSocket.Reconnection?

        /// Options for a connection.
        /// - Parameters:
        ///   - maximumMessageSize: The largest message in bytes; 16 MiB by default.
        ///   - pingInterval: How often a ping is sent; every 30 seconds by default, `nil` for never.
        ///   - pingTimeout: How long a pong may take; 10 seconds by default.
        ///   - handshakeTimeout: How long the opening handshake may take; the method's timeout by default.
        ///   - closeTimeout: How long the server's close frame is awaited after the client's; 5 seconds by
        ///     default.
        ///   - reconnection: Whether the connection is opened again after it is lost; off by default.
        public init(
            maximumMessageSize: Int = 16 << 20,
            pingInterval: Duration? = .seconds(30),
            pingTimeout: Duration = .seconds(10),
            handshakeTimeout: Duration? = nil,
            closeTimeout: Duration = .seconds(5),
            reconnection: WebSocket.Reconnection? = nil
        ) {
            self.maximumMessageSize = maximumMessageSize
            self.pingInterval = pingInterval
            self.pingTimeout = pingTimeout
            self.handshakeTimeout = handshakeTimeout
            self.closeTimeout = closeTimeout
            self.reconnection = reconnection
        }
    }
}
