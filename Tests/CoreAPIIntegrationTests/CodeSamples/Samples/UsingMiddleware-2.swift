// UsingMiddleware.md, sample 2.
import CoreAPI

struct SlowCallReporter: Middleware {
    var waitsOnlyInNext: Bool { true }  // no sleep, actor or user closure is awaited below

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let start = ContinuousClock.now
        defer {
            if ContinuousClock.now - start > .seconds(2) {
                print("slow call: \(context.methodName), attempt \(context.attempt)")
            }
        }
        return try await next(request)
    }
}
