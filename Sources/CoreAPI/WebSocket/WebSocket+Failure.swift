extension WebSocket {
    /// How a WebSocket connection failed after it was opened, or why it could not be opened at all.
    ///
    /// Failures of the opening handshake itself are ``ApiError`` values, as for any request: a transport
    /// failure, a timeout, or a status (`401` as ``ApiError/unauthorized(_:)``).
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The transport cannot open WebSockets here; `reason` says what can.
        case unavailable(reason: String)
        /// The server answered the opening handshake with `101` but not as RFC 6455 requires.
        case handshakeFailed(reason: String)
        /// A message larger than ``WebSocket/Options/maximumMessageSize`` arrived (or was to be sent); the
        /// connection was closed with ``WebSocket/CloseCode/messageTooBig``.
        case messageTooLarge(limit: Int)
        /// No pong came within ``WebSocket/Options/pingTimeout`` of a ping; the connection was failed at
        /// once, without waiting for the server's close frame (RFC 6455 §7.1.7).
        case pingTimeout
        /// The server broke the protocol (RFC 6455), such as with a malformed frame; the connection was
        /// closed with ``WebSocket/CloseCode/protocolError``.
        case protocolError(reason: String)
        /// The connection ended without a close frame, such as a dropped TCP connection.
        case connectionLost
        /// The connection is closed (by either side), so the message was not sent.
        case closed(WebSocket.Closure)

        /// A description for logs.
        public var description: String {
            switch self {
            case .unavailable(let reason): "WebSockets are unavailable: \(reason)"
            case .handshakeFailed(let reason): "WebSocket handshake failed: \(reason)"
            case .messageTooLarge(let limit): "WebSocket message larger than \(limit) bytes"
            case .pingTimeout: "WebSocket ping timed out"
            case .protocolError(let reason): "WebSocket protocol error: \(reason)"
            case .connectionLost: "WebSocket connection lost"
            case .closed(let closure): "WebSocket closed (\(closure.code))"
            }
        }
    }
}
