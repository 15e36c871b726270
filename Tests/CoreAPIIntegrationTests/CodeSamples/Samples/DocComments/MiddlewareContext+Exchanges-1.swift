// MiddlewareContext+Exchanges.swift, sample 1: a member, in a middleware.
import CoreAPI

// The formatter would lay out the call the doc comment shows on one screen over eight lines.
// swift-format-ignore
private struct HopMarker: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        try await context.withEachExchange({ request, send in
            var request = request
            request.headers.set("1", for: "X-Hop")
            return try await send(request)
        }, perform: { try await next(request) })
    }
}
