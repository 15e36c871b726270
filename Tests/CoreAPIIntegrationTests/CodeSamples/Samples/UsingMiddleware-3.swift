// UsingMiddleware.md, sample 3.
import CoreAPI

/// The app's sign-in code: it returns a fresh access token.
protocol AuthService: Sendable {
    func refreshAccessToken() async throws -> String
}

func makeSession(hosts: any HostProvider, savedToken: String?, auth: any AuthService) -> ApiSession {
    ApiSession(
        hostProvider: hosts,
        middlewares: [
            ObserverMiddleware(),  // sees each call once, after retries
            RetryMiddleware(policy: RetryPolicy()),  // re-sends transient failures
            HeadersMiddleware.defaults,  // User-Agent, Accept-Language, Accept-Encoding
            TokenRefreshMiddleware(token: savedToken) { _ in try await auth.refreshAccessToken() },
            LoggingMiddleware(level: .info),  // what is sent, one line per attempt, secrets redacted
        ]
    )
}
