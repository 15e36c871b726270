#if Logging || Metrics || Tracing
    import CoreAPI
    import CoreAPITesting
    import Foundation

    /// A method with secrets in its header fields and query, for the observability bridges' tests.
    struct ObservedGet: ApiMethod {
        typealias Response = Data
        var hostProviderKey: String { "api" }
        var headers: Headers {
            ["Authorization": "Bearer \(ObservedCall.token)", "Cookie": "session=\(ObservedCall.cookie)"]
        }
        func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
            .components(
                host: try hostProvider.host(for: hostProviderKey),
                path: "/orders/42",
                queryItems: [
                    URLQueryItem(name: "access_token", value: ObservedCall.queryToken),
                    URLQueryItem(name: "page", value: "2"),
                ]
            )
        }
        func encode(to encoder: any Encoder) throws {}
    }

    /// A stub server whose `/orders/42` answers 503, then a redirect to `/orders/42/final`, which answers 200:
    /// with a retry, one call makes three requests, the second and third one attempt.
    enum ObservedCall {
        static let token = "tok-secret-1"
        static let cookie = "cookie-secret-2"
        static let queryToken = "query-secret-3"
        static let secrets = [token, cookie, queryToken]

        static func makeTransport() -> StubTransport {
            let stub = StubTransport()
            let count = SharedCounter()
            stub.on(.get, "/orders/42") { _ in
                count.next() == 0
                    ? .status(503)
                    : .status(302, headers: ["Location": "/orders/42/final"])
            }
            stub.on(.get, "/orders/42/final", reply: .text("{}"))
            return stub
        }

        /// A retry without waiting, three attempts at most.
        static var retry: RetryMiddleware {
            RetryMiddleware(policy: RetryPolicy(maximumAttempts: 3, backoff: .constant(.zero)))
        }

        /// Whether `text` holds none of the secrets.
        static func isFreeOfSecrets(_ text: String) -> Bool {
            !secrets.contains { text.contains($0) }
        }
    }
#endif
