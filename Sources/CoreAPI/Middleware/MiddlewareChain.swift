#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// Runs a request through middlewares and then `terminal`.
struct MiddlewareChain: Sendable {
    let middlewares: [any Middleware]
    let terminal: @Sendable (ApiRequest) async throws -> RawResponse

    func run(_ request: ApiRequest, context: MiddlewareContext) async throws -> RawResponse {
        try await run(request, context: context, from: 0)
    }

    private func run(_ request: ApiRequest, context: MiddlewareContext, from index: Int) async throws -> RawResponse {
        guard index < middlewares.count else {
            return try await terminal(request)
        }
        let calls = LockedValue(0)
        return try await middlewares[index].intercept(request, context: context) { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            var context = context
            context.attempt += call - 1
            return try await run(request, context: context, from: index + 1)
        }
    }
}
