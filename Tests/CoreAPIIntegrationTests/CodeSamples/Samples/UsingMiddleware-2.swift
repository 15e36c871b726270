// UsingMiddleware.md, sample 2.
import CoreAPI

func makeSession(hosts: any HostProvider, savedToken: String?, auth: any AuthService) -> ApiSession {
    ApiSession(
        hostProvider: hosts,
        middlewares: [
            ObserverMiddleware(),  // sees each call once, after retries
            RetryMiddleware(policy: RetryPolicy()),  // re-sends transient failures
            LoggingMiddleware(level: .info),  // one line per attempt, secrets redacted
            HeadersMiddleware.defaults,  // User-Agent, Accept-Language, Accept-Encoding
            TokenRefreshMiddleware(token: savedToken) { _ in try await auth.refreshAccessToken() },
        ]
    )
}
