#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Runs a request through middlewares and then a terminal step.
struct MiddlewareChain: Sendable {
    let middlewares: [any Middleware]

    /// Runs `request` through the middlewares, the last of which gets `terminal` as its `next`.
    ///
    /// The terminal is a closure the caller writes at the call, which nothing keeps: its context stays
    /// on the caller's frame, where a stored one would be allocated, with what it captures copied in, on
    /// every call.
    @inline(__always)
    func run(
        _ request: ApiRequest,
        context: MiddlewareContext,
        terminal: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        guard !middlewares.isEmpty else {
            return try await terminal(request)
        }
        return try await run(request, context: context, from: 0, terminal: terminal)
    }

    /// Runs the middleware at `index`, whose `next` runs the one after it, or the terminal after the last:
    /// the terminal is the last one's `next` itself, one async call fewer per request, and the last
    /// middleware counts no attempts, since the terminal takes no context.
    private func run(
        _ request: ApiRequest,
        context: MiddlewareContext,
        from index: Int,
        terminal: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        if index + 1 == middlewares.count {
            return try await middlewares[index].intercept(request, context: context, next: terminal)
        }
        let calls = SharedCounter()
        return try await middlewares[index].intercept(request, context: context) { request in
            var context = context
            context.attempt += calls.next()
            return try await run(request, context: context, from: index + 1, terminal: terminal)
        }
    }
}
