// UsingMiddleware.md, sample 2.
import CoreAPI
import Foundation

struct RequestStamp: Middleware {
    var waitsOnlyInNext: Bool { true }  // no sleep, actor or user closure is awaited below

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        var request = request
        request.headers.set(UUID().uuidString, for: "X-Request-ID")
        return try await next(request)
    }
}
