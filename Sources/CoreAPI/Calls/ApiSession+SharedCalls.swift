#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Sharing identical exchanges in flight (``CallOptions/sharesIdenticalCalls``).
extension ApiSession {
    /// Sends `request` as ``send(_:body:options:call:)`` does, or, when an identical request of
    /// `method`'s type is in flight (see ``WireIdentity``), waits for its answer instead.
    ///
    /// The identity is taken here, after the middleware chain, from the request exactly as it would be
    /// sent: every field a middleware set is part of it, and a request the chain leaves different never
    /// joins another. The shared exchange runs with the limits and the progress closure of the caller
    /// that started it.
    /// - Parameters:
    ///   - request: The request as the middlewares left it.
    ///   - options: The caller's limits.
    ///   - call: The caller's call: cancelling it makes the caller leave the shared exchange.
    ///   - method: The method performed.
    func send<M: ApiMethod>(
        _ request: ApiRequest,
        options: TransportOptions,
        call: Call,
        sharingFor method: M,
        settings: CallOptions
    ) async throws -> RawResponse {
        // Checked before the identity is taken, so a request that may not be sent never joins one that may.
        try request.headers.validate()
        guard let identity = WireIdentity(of: request, method: method, settings: settings, options: options) else {
            return try await send(request, options: options, call: call)
        }
        let wrappers = call.exchangeWrappers
        return try await sharedCalls.perform(identity, for: call) { [self] in
            // A call of its own, which no caller's cancel reaches: it ends when its task is cancelled,
            // once every caller has left. The exchange wrappers of the caller that starts it wrap its
            // requests, the only ones on the wire (see `MiddlewareContext.withEachExchange`).
            let shared = Call(exchangeWrappers: wrappers)
            return try await send(request, options: options, call: shared)
        }
    }
}
