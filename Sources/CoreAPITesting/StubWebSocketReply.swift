/// How a ``StubTransport`` answers a WebSocket opening handshake.
public enum StubWebSocketReply: Sendable {
    /// Switches protocols: the connection's server side is `peer`.
    case accept(StubWebSocketPeer)
    /// Refuses with an HTTP response, such as `.status(401)`.
    case refuse(StubResponse)
}
