extension MiddlewareContext {
    /// Runs `body` — which calls the middleware's `next` — with `exchange` wrapped around every exchange
    /// the session sends for it: each request the chain's end sends and each redirect hop the session
    /// follows, just before the transport.
    ///
    /// A middleware sees a call once per pass of the chain (each attempt, when it sits after a retrying
    /// one), but redirects are followed below the chain. Bridges that must see every HTTP request on the
    /// wire — a tracing span and a `traceparent` per request, a request-duration metric per request —
    /// wrap the exchanges here, while their `intercept` covers the whole call:
    ///
    /// ```swift
    /// func intercept(
    ///     _ request: ApiRequest,
    ///     context: MiddlewareContext,
    ///     next: @Sendable (ApiRequest) async throws -> RawResponse
    /// ) async throws -> RawResponse {
    ///     try await context.withEachExchange({ request, send in
    ///         var request = request
    ///         request.headers.set("1", for: "X-Hop")
    ///         return try await send(request)
    ///     }, perform: { try await next(request) })
    /// }
    /// ```
    ///
    /// Wrappers added by several middlewares nest in the chain's order, the outermost middleware's
    /// outermost. They see each exchange's request as sent, after header validation and, on a hop that
    /// leaves the origin, with secrets stripped; header fields a wrapper sets are not validated again.
    /// The response they get is the hop's own, a `3xx` included. An exchange shared by identical calls
    /// (``CallOptions/sharesIdenticalCalls``) passes the wrappers of the call that started it, once; the
    /// calls that join it send nothing themselves. A WebSocket handshake is no exchange: `exchange` is not
    /// run for it.
    /// - Parameters:
    ///   - exchange: Gets each exchange's request and `send`, which sends it on; returns the response.
    ///   - body: Runs the rest of the chain.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withEachExchange<Result>(
        _ exchange:
            @escaping @Sendable (
                ApiRequest, _ send: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse,
        perform body: () async throws -> Result
    ) async throws -> Result {
        // Inlinable, so the generic part, which awaits `body`, is specialised in the middleware's module;
        // the wrappers are added and removed inside CoreAPI.
        guard let id = addExchangeWrapper(exchange) else { return try await body() }
        defer { removeExchangeWrapper(id) }
        return try await body()
    }

    /// Adds `exchange` inside the call's exchange wrappers and returns the number to remove it with;
    /// `nil` when there is no call to wrap the exchanges of (a WebSocket's handshake).
    @usableFromInline
    func addExchangeWrapper(
        _ exchange:
            @escaping @Sendable (
                ApiRequest, _ send: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse
    ) -> Int? {
        call?.addExchangeWrapper(exchange)
    }

    /// Removes the wrapper ``addExchangeWrapper(_:)`` returned `id` for.
    @usableFromInline
    func removeExchangeWrapper(_ id: Int) {
        call?.removeExchangeWrapper(id)
    }
}
