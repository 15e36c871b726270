#if AsyncHTTPClient
    public import AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1

    /// The AsyncHTTPClient baseline: `execute`, a status check, `collect(upTo:)` and `JSONDecoder`, as a
    /// server without CoreAPI would write it, on a client configured as ``Setup`` says.
    public struct AsyncHTTPClientClient: LoopbackClient {
        /// Which client the baseline sends with.
        public enum Setup: Sendable {
            /// A client of its own with the configuration CoreAPI's transport uses
            /// (``AsyncHTTPClientTransport/makeClientConfiguration()``: no redirects, no decompression, no
            /// tracing span of AsyncHTTPClient's own): what CoreAPI adds on the same client.
            case transportConfiguration
            /// A client of its own with AsyncHTTPClient's default `HTTPClient.Configuration()`: redirects
            /// followed, and a `CLIENT` span per request with the bootstrapped tracer (the no-op one here).
            case defaultConfiguration
            /// `HTTPClient.shared`, the client AsyncHTTPClient's README starts with: its default
            /// configuration plus decompression and 90-second connect and read timeouts.
            case shared
        }

        /// The client: made for this benchmark client alone, or `HTTPClient.shared`.
        public let client: HTTPClient
        /// Whether `shutdown()` shuts `client` down (not `HTTPClient.shared`).
        private let ownsClient: Bool
        /// `<base>/user`.
        public let url: String
        /// One decoder shared by all requests.
        public let decoder = JSONDecoder()

        /// A client set up as `setup` says, for the server at `baseURL`, on AsyncHTTPClient's shared
        /// event loops.
        public init(baseURL: String, setup: Setup = .transportConfiguration) {
            switch setup {
            case .transportConfiguration:
                client = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: AsyncHTTPClientTransport.makeClientConfiguration()
                )
                ownsClient = true
            case .defaultConfiguration:
                client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init())
                ownsClient = true
            case .shared:
                client = HTTPClient.shared
                ownsClient = false
            }
            url = baseURL + "/user"
        }

        /// Sends `GET <base>/user` and decodes the body.
        public func fetch() async throws -> TinyUser {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
            guard response.status == .ok else {
                throw BenchServerError(description: "status \(response.status.code)")
            }
            let body = try await response.body.collect(upTo: 10 * 1024 * 1024)
            return try decoder.decode(TinyUser.self, from: body)
        }

        /// Shuts the client down, unless it is `HTTPClient.shared`.
        public func shutdown() {
            if ownsClient {
                client.shutdown { _ in }
            }
        }
    }

    /// CoreAPI over its AsyncHTTPClient transport: `ApiSession.perform(GetTinyUser())`.
    public struct CoreAPIAsyncHTTPClientClient: LoopbackClient {
        /// The transport, with a client of its own.
        public let transport: AsyncHTTPClientTransport
        /// The session under test.
        public let session: ApiSession

        /// A session over a new transport for the server at `baseURL`, with `middlewares`.
        public init(baseURL: String, middlewares: [any Middleware] = []) {
            transport = AsyncHTTPClientTransport()
            session = ApiSession(hostProvider: benchHosts(baseURL), transport: transport, middlewares: middlewares)
        }

        /// Performs the method.
        public func fetch() async throws -> TinyUser {
            try await session.perform(GetTinyUser())
        }

        /// Invalidates the session and shuts the transport's client down.
        public func shutdown() {
            session.invalidate()
            transport.client.shutdown { _ in }
        }
    }
#endif
