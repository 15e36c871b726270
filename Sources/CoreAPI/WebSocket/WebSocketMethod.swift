/// A WebSocket endpoint, declared as a method: host key, path, header fields, middlewares and query
/// parameters (what it encodes), as for any ``ApiMethod``, plus the connection's options.
///
/// ``ApiSession/webSocket(_:)`` builds the opening handshake from it — the host's `http` or `https`
/// becomes `ws` or `wss` — and sends it through the session's and the method's middlewares, so header
/// and token middlewares apply, with the values they have when it connects.
///
/// ```swift
/// struct ChatSocket: WebSocketMethod {
///     @Excluded var room: String
///     var hostProviderKey: String { "chat" }
///     var path: String { "/rooms/\(room)/socket" }
/// }
/// ```
public protocol WebSocketMethod: ApiMethod where Response == EmptyResponse {
    /// The connection's limits, keep-alive and reconnection; the defaults of ``WebSocketOptions``
    /// unless set.
    var webSocketOptions: WebSocketOptions { get }
}

extension WebSocketMethod {
    /// The defaults of ``WebSocketOptions``.
    public var webSocketOptions: WebSocketOptions { WebSocketOptions() }
}
