import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The samples of UsingMiddleware.md, verbatim (indentation aside).

/// The app's authentication service the samples refresh tokens with.
protocol AuthService: Sendable {
    func refreshAccessToken() async throws -> String
}

// UsingMiddleware.md: a middleware of one's own.
struct RequestID: Middleware {
    func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        var request = request
        request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
        return try await next(request)
    }
}

// UsingMiddleware.md: a session with the built-ins in a good order.
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

// UsingMiddleware.md: headers from an Encodable value, and a static header that overwrites.
struct ClientInfo: Encodable, Sendable {
    let appVersion: String
    let deviceID: String?
    enum CodingKeys: String, CodingKey {
        case appVersion = "X-App-Version"
        case deviceID = "X-Device-ID"
    }
}

func makeHeaderMiddlewares() -> [any Middleware] {
    let clientHeaders = HeadersMiddleware(encoding: ClientInfo(appVersion: "4.2", deviceID: nil))
    let apiKey = HeadersMiddleware(["X-Api-Key": "k-123"], policy: .overwrite)
    return [clientHeaders, apiKey]
}

// UsingMiddleware.md: a retry policy of one's own.
func retrySample() -> RetryMiddleware {
    let patientRetry = RetryMiddleware(
        policy: RetryPolicy(maxAttempts: 5, initialDelay: 1, maxDelay: 20),
        onRetry: { retry in print("retrying: \(retry)") }
    )
    return patientRetry
}

// UsingMiddleware.md: logging with extra secrets.
func loggingSample() -> LoggingMiddleware {
    let logging = LoggingMiddleware(
        level: .debug,
        redaction: Redaction(secretHeaderNames: ["X-Api-Key"], secretParameterKeys: ["pin"]),
        handler: { record in print("[api] \(record.message)") }
    )
    return logging
}

// UsingMiddleware.md: a sandbox session.
func makeSandboxSession() -> ApiSession {
    let mock = MockMiddleware()
    mock.on(.get, "/users/*", reply: .status(404))
    mock.on(GetUser.self, reply: .json(#"{"id": 42, "name": "Ada"}"#).delayed(by: .milliseconds(300)))
    return ApiSession(hostProvider: DictionaryHostProvider(["api": "https://sandbox.example"]), middlewares: [mock])
}

// UsingMiddleware.md: app-wide failure handling.
func watchFailures(of observer: ObserverMiddleware) -> Task<Void, Never> {
    Task {
        for await failure in observer.failures() where failure.statusCode == 401 {
            print("signed out after \(failure.methodName)")
        }
    }
}

// SecurityAndReliability.md: a session with its own policy.
func makePolicySession() -> ApiSession {
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        policy: TransportPolicy(
            maximumRedirects: 3,
            maximumResponseSize: 50 * 1024 * 1024,
            secretHeaderNames: ["X-Api-Key"]
        )
    )
    return session
}
