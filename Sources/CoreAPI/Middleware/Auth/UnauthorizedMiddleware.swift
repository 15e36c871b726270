#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Calls a closure when a response is unauthorized — to log the user out, for example — and passes the
/// response on unchanged.
///
/// The closure runs once for each unauthorized response (a `401` by default, whatever status codes the
/// method accepts) that comes back through this middleware. The call waits for it, so its result
/// arrives after the closure has done its work; keep it short. When several calls are rejected together,
/// it runs once for each. Errors thrown through it, ``ApiError/unauthorized(_:)`` included, pass without
/// a call: they are not responses.
///
/// Put it before a ``TokenRefreshMiddleware`` in the chain (outer), so it sees only what is left after
/// any refresh; behind the refresher it would also see the rejections the refresher recovers from. A
/// failed refresh reaches it as the refresh's error, not as a response: log out in the refresh closure,
/// or perform the refresh call through a session with this handler, whose own `401` then calls it once.
///
/// ```swift
/// let session = ApiSession(
///     hostProvider: hosts,
///     middlewares: [
///         UnauthorizedMiddleware { failure, context in await account.logOut() },
///         TokenRefreshMiddleware(token: token) { rejected in try await account.refreshToken() },
///     ]
/// )
/// ```
public struct UnauthorizedMiddleware: Middleware {
    private let isUnauthorized: @Sendable (RawResponse, MiddlewareContext) -> Bool
    private let handler: @Sendable (ApiError.StatusFailure, MiddlewareContext) async -> Void

    /// Creates the middleware.
    /// - Parameters:
    ///   - isUnauthorized: Whether a response counts as unauthorized; a `401` status by default,
    ///     whatever status codes the method accepts.
    ///   - handler: Called with the status, headers, capped body and URL of the response, and the
    ///     call's context.
    public init(
        isUnauthorized: @escaping @Sendable (RawResponse, MiddlewareContext) -> Bool = { response, _ in
            response.statusCode == 401
        },
        handler: @escaping @Sendable (_ failure: ApiError.StatusFailure, _ context: MiddlewareContext) async -> Void
    ) {
        self.isUnauthorized = isUnauthorized
        self.handler = handler
    }

    /// Handles one request: sends it on and calls the handler when the response is unauthorized.
    /// - Throws: whatever the rest of the chain throws, unchanged.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let response = try await next(request)
        if isUnauthorized(response, context) {
            await handler(ApiError.StatusFailure(response: response.head, body: response.data), context)
        }
        return response
    }
}
