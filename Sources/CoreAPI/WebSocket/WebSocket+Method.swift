public import Foundation

extension WebSocket {
    /// A WebSocket endpoint, declared as a method: host key, path, header fields, middlewares and query
    /// parameters (what it encodes), as for any ``ApiMethod``, plus the connection's options.
    ///
    /// ``ApiSession/webSocket(_:)`` builds the opening handshake from it — the host's `http` or `https`
    /// becomes `ws` or `wss` — and sends it through the session's and the method's middlewares, so header
    /// and token middlewares apply, with the values they have when it connects.
    ///
    /// ```swift
    /// struct ChatSocket: WebSocket.Method {
    ///     @Excluded var room: String
    ///     var hostProviderKey: String { "chat" }
    ///     var path: String { "/rooms/\(room)/socket" }
    /// }
    /// ```
    public protocol Method: ApiMethod where Response == EmptyResponse {
        /// The connection's limits, keep-alive and reconnection; the defaults of ``WebSocket/Options``
        /// unless set.
        var webSocketOptions: WebSocket.Options { get }
        /// The encoder of the JSON messages sent with ``WebSocket/send(json:encoder:)``: set the key and date
        /// strategies of the service here once. A plain `JSONEncoder` by default.
        var messageEncoder: JSONEncoder { get }
        /// The decoder of ``WebSocket/decode(_:from:)``; a plain `JSONDecoder` by default.
        var messageDecoder: JSONDecoder { get }
    }
}

extension WebSocket.Method {
    /// The defaults of ``WebSocket/Options``.
    public var webSocketOptions: WebSocket.Options { WebSocket.Options() }
    /// A plain `JSONEncoder`.
    public var messageEncoder: JSONEncoder { JSONEncoder() }
    /// A plain `JSONDecoder`.
    public var messageDecoder: JSONDecoder { JSONDecoder() }
}
