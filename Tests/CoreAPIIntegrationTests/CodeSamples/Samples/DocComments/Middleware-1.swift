// Middleware.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct RequestID: Middleware {
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
}
