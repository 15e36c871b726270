public import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// WebSockets in memory: each opening handshake that a route accepts is connected to a
/// ``StubTransport/WebSocketPeer`` the test drives.
extension StubTransport {
    /// Answers a WebSocket opening handshake.
    public typealias WebSocketHandler =
        @Sendable (StubTransport.RecordedRequest) async throws -> StubTransport.WebSocketPeer.Reply

    /// Answers opening handshakes whose path matches `path` (equal, or a prefix when it ends in `*`)
    /// with `handler`; a later route wins. Handshakes no route matches are refused with ``fallback``.
    ///
    /// ```swift
    /// let peer = StubTransport.WebSocketPeer()
    /// transport.onWebSocket("/chat") { _ in .accept(peer) }
    /// ```
    public func onWebSocket(_ path: String, handler: @escaping WebSocketHandler) {
        webSocketRoutes.add(nil, path, handler)
    }

    /// Every WebSocket opening handshake so far, in order, with the header fields the session and its
    /// middlewares gave it.
    public var webSocketRequests: [StubTransport.RecordedRequest] {
        webSocketRoutes.requests
    }

    /// Records the opening handshake and answers it from the newest matching route.
    /// - Parameters:
    ///   - request: The opening handshake as the session built it.
    ///   - options: The connection's limits, which the stub connection enforces as an engine does.
    /// - Returns: The stub connection, or the refusal.
    /// - Throws: `ApiError`: a handler's error, or the refusal's failure.
    public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
        let url = request.url
        let recorded = StubTransport.RecordedRequest(request, url: url, body: nil)
        let handler = webSocketRoutes.record(recorded)
        let reply: StubTransport.WebSocketPeer.Reply
        do {
            reply = try await handler?(recorded) ?? .refuse(fallback)
        } catch {
            throw ApiError(error)
        }
        switch reply {
        case .accept(let peer):
            return .upgraded(StubWebSocketConnection(peer: peer, options: options))
        case .refuse(let response):
            let parts = try response.make().mapError { ApiError($0) }.get()
            return .refused(
                try RawResponse(url: url, statusCode: parts.statusCode, headers: parts.headers, data: parts.body)
            )
        }
    }
}
