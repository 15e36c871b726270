#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Opening WebSocket connections through the session's transport and middlewares.
extension ApiSession {
    /// Opens the WebSocket connection `method` describes.
    ///
    /// The opening handshake is built like any request of the session — host, path, query parameters,
    /// the session's and the method's header fields — with `ws` or `wss` for the host's `http` or
    /// `https`, and goes through the session's and the method's middlewares: header and token
    /// middlewares apply, a `401` reaches a token refresh, and logging redacts its secrets. The
    /// session's ``transport`` performs it (``Transport/openWebSocket(_:options:)``).
    /// - Parameter method: The endpoint and the connection's options.
    /// - Returns: The open connection.
    /// - Throws: ``ApiError`` as for any request — ``ApiError/invalidRequest(_:)`` before anything is
    ///   sent, a transport failure, ``ApiError/timeout`` (``WebSocket/Options/handshakeTimeout``), a status
    ///   error when the server refuses — or ``WebSocket/Failure/unavailable(reason:)`` when the transport
    ///   opens no WebSockets (``URLSessionTransport`` on Linux: use `AsyncHTTPClientTransport`, from the
    ///   `CoreAPIAsyncHTTPClient` product and the package trait `AsyncHTTPClient`, there).
    public func webSocket<M: WebSocket.Method>(_ method: M) async throws -> WebSocket {
        let options = method.webSocketOptions
        let opening = try makeWebSocketRequest(for: method)
        let connection = try await openWebSocket(method, request: opening, options: options)
        // The socket keeps the session for its reconnections; the session keeps no socket.
        return WebSocket(
            url: opening.url,
            options: options,
            coders: (method.messageEncoder, method.messageDecoder),
            connection: connection
        ) {
            // Built again for each reconnection: header fields and parameters are read anew.
            try await self.openWebSocket(
                method,
                request: self.makeWebSocketRequest(for: method),
                options: options
            )
        }
    }

    /// The opening handshake's request: the method's request with `ws` or `wss` for `http` or `https`.
    func makeWebSocketRequest<M: WebSocket.Method>(for method: M) throws -> ApiRequest {
        guard isValid else { throw ApiError.invalidRequest(.sessionInvalidated) }
        var request = try makeRequest(for: method)
        let url = request.url
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ApiError.invalidRequest(.invalidURL(url.absoluteString))
        }
        switch components.scheme?.lowercased() {
        case "http", "ws": components.scheme = "ws"
        case "https", "wss": components.scheme = "wss"
        default: throw ApiError.invalidRequest(.invalidURL(Secrets.Redaction().redact(url)))
        }
        guard let upgraded = components.url else {
            throw ApiError.invalidRequest(.invalidURL(Secrets.Redaction().redact(url)))
        }
        request.url = upgraded
        return request
    }

    /// Runs one opening handshake through the middlewares; the connection when the server switched
    /// protocols.
    private func openWebSocket<M: WebSocket.Method>(
        _ method: M,
        request: ApiRequest,
        options: WebSocket.Options
    ) async throws -> any WebSocket.Connection {
        // The connections the attempts opened, and whether the handshake was given up (timeout, cancel):
        // a connection that arrives after that is closed at once instead of being left open.
        let opened = LockedValue<(connections: [any WebSocket.Connection], abandoned: Bool)>(([], false))
        let transport = self.transport
        let settings = settings(for: method)
        let chain = MiddlewareChain(middlewares: middlewares + settings.middlewares)
        // The chain's end: the handshake.
        let handshake: @Sendable (ApiRequest) async throws -> RawResponse = { request in
            switch try await transport.openWebSocket(request, options: options) {
            case .upgraded(let connection):
                let kept = opened.withLock { state -> Bool in
                    if !state.abandoned { state.connections.append(connection) }
                    return !state.abandoned
                }
                guard kept else {
                    await connection.close(WebSocket.Closure(code: .goingAway))
                    throw ApiError.cancelled
                }
                return try RawResponse(url: request.url, statusCode: 101)
            case .refused(let response):
                return response
            }
        }
        let idle = settings.timeoutSeconds ?? defaultTimeoutSeconds
        let limit = options.handshakeTimeout ?? (idle.isFinite ? .seconds(idle) : CallOptions.unlimited)
        let context = MiddlewareContext(method: method, options: settings, attempt: 1, session: self)
        let response: RawResponse
        do {
            response = try await WebSocketTimeout.run(limit: limit, error: ApiError.timeout) {
                try await chain.run(request, context: context, terminal: handshake)
            }
        } catch {
            let connections = opened.withLock { state in
                state.abandoned = true
                return state.connections
            }
            await Self.close(connections)
            throw error is WebSocket.Failure ? error : ApiError(error)
        }
        var connections = opened.withLock { $0.connections }
        guard response.statusCode == 101, let connection = connections.popLast() else {
            await Self.close(connections)
            _ = try process(.success(response), for: method, settings: settings)
            throw WebSocket.Failure.handshakeFailed(
                reason: response.statusCode == 101
                    ? "a middleware answered the opening handshake" : "status \(response.statusCode) instead of 101"
            )
        }
        await Self.close(connections)  // opened by attempts a middleware then discarded
        return connection
    }

    private static func close(_ connections: [any WebSocket.Connection]) async {
        for connection in connections {
            await connection.close(WebSocket.Closure(code: .goingAway))
        }
    }
}
