/// How a server answered a WebSocket opening handshake: with a connection, or with an HTTP response
/// that refused it.
public enum WebSocketUpgrade: Sendable {
    /// The server switched protocols; the connection is open.
    case upgraded(any WebSocketConnection)
    /// The server answered with another status, such as `401`; the response as it came, which the
    /// middlewares and then the session judge as for any request.
    case refused(RawResponse)
}
