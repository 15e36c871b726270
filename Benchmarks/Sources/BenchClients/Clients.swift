public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// One way of fetching and decoding the tiny user over HTTP.
public protocol LoopbackClient: Sendable {
    /// One `GET /user` and JSON decode.
    func fetch() async throws -> TinyUser
    /// Releases the client's session.
    func shutdown()
}

/// CoreAPI: `ApiSession.perform(GetTinyUser())`.
public struct CoreAPIClient: LoopbackClient {
    /// The session under test.
    public let session: ApiSession

    /// Performs the method.
    public func fetch() async throws -> TinyUser {
        try await session.perform(GetTinyUser())
    }

    /// Invalidates the session.
    public func shutdown() {
        session.invalidate()
    }
}

/// The baseline: `URLSession.data(for:)`, a status check and `JSONDecoder`, as an app without CoreAPI would
/// write it; like CoreAPI, it builds a new `URLRequest` for every call.
public struct URLSessionClient: LoopbackClient {
    /// The session, with its own configuration.
    public let session: URLSession
    /// `<base>/user`.
    public let url: URL
    /// One decoder shared by all requests, as CoreAPI shares one per response type.
    public let decoder = JSONDecoder()

    /// Sends `GET <base>/user` and decodes the body.
    public func fetch() async throws -> TinyUser {
        let (data, response) = try await session.data(for: URLRequest(url: url))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw URLError(.badServerResponse)
        }
        return try decoder.decode(TinyUser.self, from: data)
    }

    /// Invalidates the session.
    public func shutdown() {
        session.finishTasksAndInvalidate()
    }
}

/// The clients compared, each built against a server's base URL.
public enum ClientKind: String, CaseIterable, Sendable {
    /// CoreAPI with `URLSessionConfiguration.default`, the configuration of the raw baseline.
    case coreAPISameConfiguration = "CoreAPI, URLSessionConfiguration.default"
    /// Raw `URLSession` with `URLSessionConfiguration.default`, baseline of the line above.
    case urlSessionSameConfiguration = "URLSession, URLSessionConfiguration.default"
    /// CoreAPI as it comes: `ApiSession(hostProvider:)`, whose configuration is
    /// `ApiSession.makeDefaultConfiguration()`.
    case coreAPIDefaultSession = "CoreAPI, default session"
    /// Raw `URLSession(configuration: .default)`, baseline of the default session.
    case urlSessionDefault = "URLSession, default configuration"
    /// Raw `URLSession` with `ApiSession.makeDefaultConfiguration()` (cookies and cache off): what the
    /// transport itself costs with CoreAPI's defaults, the floor under CoreAPI's default session.
    case urlSessionLean = "URLSession, CoreAPI default configuration"
    /// CoreAPI over `StubTransport`, which answers in process: CoreAPI's own path (request building,
    /// middleware chain, transport seam, response processing and decoding) with no engine and no socket,
    /// so its instruction count repeats from run to run. It makes no request to the server.
    case coreAPIStubTransport = "CoreAPI, stub transport"
    #if Observability
        /// ``coreAPIStubTransport`` with `LoggingMiddleware(logger:)` over swift-log's no-op handler.
        case coreAPIStubLogging = "CoreAPI, stub transport, swift-log bridge (no-op handler)"
        /// ``coreAPIStubTransport`` with `MetricsMiddleware` over swift-metrics' no-op handler.
        case coreAPIStubMetrics = "CoreAPI, stub transport, swift-metrics bridge (no-op handler)"
        /// ``coreAPIStubTransport`` with `TracingMiddleware` over swift-distributed-tracing's no-op tracer.
        case coreAPIStubTracing = "CoreAPI, stub transport, tracing bridge (no-op tracer)"
    #endif
    #if AsyncHTTPClient
        /// CoreAPI over its AsyncHTTPClient transport, with the transport's own client.
        case coreAPIAsyncHTTPClient = "CoreAPI, AsyncHTTPClient transport"
        /// Raw AsyncHTTPClient with the configuration of CoreAPI's transport, baseline of the line above.
        case asyncHTTPClient = "AsyncHTTPClient"
        /// Raw AsyncHTTPClient with its default configuration (`HTTPClient.Configuration()`), which makes
        /// a tracing span of its own per request: AsyncHTTPClient as a server without CoreAPI uses it.
        case asyncHTTPClientDefault = "AsyncHTTPClient, default configuration"
        /// Raw AsyncHTTPClient through `HTTPClient.shared`.
        case asyncHTTPClientShared = "AsyncHTTPClient, HTTPClient.shared"
    #endif
    #if AsyncHTTPClient && Observability
        /// ``coreAPIAsyncHTTPClient`` with the swift-log bridge over its no-op handler: what the bridge
        /// adds to a request on the wire.
        case coreAPIAsyncHTTPClientLogging = "CoreAPI, AsyncHTTPClient transport, swift-log bridge (no-op handler)"
        /// ``coreAPIAsyncHTTPClient`` with the swift-metrics bridge over its no-op handler.
        case coreAPIAsyncHTTPClientMetrics = "CoreAPI, AsyncHTTPClient transport, swift-metrics bridge (no-op handler)"
        /// ``coreAPIAsyncHTTPClient`` with the tracing bridge over the no-op tracer.
        case coreAPIAsyncHTTPClientTracing = "CoreAPI, AsyncHTTPClient transport, tracing bridge (no-op tracer)"
    #endif
    #if OpenAPI
        /// CoreAPI's own call of the generated client's `getNote` (`GET /notes/1`) over its AsyncHTTPClient
        /// transport: the baseline of the OpenAPI bridge.
        case coreAPIAsyncHTTPClientNote = "CoreAPI, AsyncHTTPClient transport, GET /notes/1"
        /// The generated client's `getNote` through `ApiSessionTransport`, over an `ApiSession` over CoreAPI's
        /// AsyncHTTPClient transport.
        case openAPIBridge = "generated OpenAPI client, CoreAPI's ApiSessionTransport over AsyncHTTPClient"
        /// The generated client's `getNote` through swift-openapi-async-http-client's transport.
        case openAPIAsyncHTTPClient = "generated OpenAPI client, swift-openapi-async-http-client"
    #endif

    /// A short name for command lines: `coreapi-same`, `urlsession-same`, `coreapi-default`,
    /// `urlsession-default`, `urlsession-lean`, `coreapi-stub`, `coreapi-stub-logging`, `coreapi-stub-metrics`,
    /// `coreapi-stub-tracing`, `coreapi-ahc`, `ahc`, `ahc-default`, `ahc-shared`, `coreapi-ahc-logging`,
    /// `coreapi-ahc-metrics`, `coreapi-ahc-tracing`, `coreapi-ahc-note`, `openapi-bridge`, `openapi-ahc`.
    public var argument: String {
        switch self {
        case .coreAPISameConfiguration: "coreapi-same"
        case .urlSessionSameConfiguration: "urlsession-same"
        case .coreAPIDefaultSession: "coreapi-default"
        case .urlSessionDefault: "urlsession-default"
        case .urlSessionLean: "urlsession-lean"
        case .coreAPIStubTransport: "coreapi-stub"
        #if Observability
            case .coreAPIStubLogging: "coreapi-stub-logging"
            case .coreAPIStubMetrics: "coreapi-stub-metrics"
            case .coreAPIStubTracing: "coreapi-stub-tracing"
        #endif
        #if AsyncHTTPClient
            case .coreAPIAsyncHTTPClient: "coreapi-ahc"
            case .asyncHTTPClient: "ahc"
            case .asyncHTTPClientDefault: "ahc-default"
            case .asyncHTTPClientShared: "ahc-shared"
        #endif
        #if AsyncHTTPClient && Observability
            case .coreAPIAsyncHTTPClientLogging: "coreapi-ahc-logging"
            case .coreAPIAsyncHTTPClientMetrics: "coreapi-ahc-metrics"
            case .coreAPIAsyncHTTPClientTracing: "coreapi-ahc-tracing"
        #endif
        #if OpenAPI
            case .coreAPIAsyncHTTPClientNote: "coreapi-ahc-note"
            case .openAPIBridge: "openapi-bridge"
            case .openAPIAsyncHTTPClient: "openapi-ahc"
        #endif
        }
    }

    /// Whether the client measures a bridge (an observability bridge, or a generated OpenAPI client and its
    /// baseline); the loopback CPU benchmarks leave these out, and the instruction counts of a full
    /// `count-instructions.sh` run take them in.
    public var measuresBridge: Bool {
        switch self {
        #if Observability
            case .coreAPIStubLogging, .coreAPIStubMetrics, .coreAPIStubTracing: true
        #endif
        #if AsyncHTTPClient && Observability
            case .coreAPIAsyncHTTPClientLogging, .coreAPIAsyncHTTPClientMetrics, .coreAPIAsyncHTTPClientTracing: true
        #endif
        #if OpenAPI
            case .coreAPIAsyncHTTPClientNote, .openAPIBridge, .openAPIAsyncHTTPClient: true
        #endif
        default: false
        }
    }

    /// Whether the client answers in process over `StubTransport`, sending nothing to the server.
    public var isStub: Bool {
        switch self {
        case .coreAPIStubTransport: true
        #if Observability
            case .coreAPIStubLogging, .coreAPIStubMetrics, .coreAPIStubTracing: true
        #endif
        default: false
        }
    }

    /// A new client for the server at `baseURL`.
    public func makeClient(baseURL: String) -> any LoopbackClient {
        switch self {
        case .coreAPISameConfiguration:
            CoreAPIClient(session: ApiSession(hostProvider: benchHosts(baseURL), configuration: .default))
        case .coreAPIDefaultSession:
            CoreAPIClient(session: ApiSession(hostProvider: benchHosts(baseURL)))
        case .urlSessionSameConfiguration, .urlSessionDefault:
            URLSessionClient(session: URLSession(configuration: .default), url: URL(string: baseURL + "/user")!)
        case .urlSessionLean:
            URLSessionClient(
                session: URLSession(configuration: ApiSession.makeDefaultConfiguration()),
                url: URL(string: baseURL + "/user")!
            )
        case .coreAPIStubTransport:
            CoreAPIClient(session: makeStubSession(baseURL: baseURL))
        #if Observability
            case .coreAPIStubLogging:
                CoreAPIClient(
                    session: makeStubSession(
                        baseURL: baseURL,
                        middlewares: [ObservabilityBridge.logging.makeMiddleware()]
                    )
                )
            case .coreAPIStubMetrics:
                CoreAPIClient(
                    session: makeStubSession(
                        baseURL: baseURL,
                        middlewares: [ObservabilityBridge.metrics.makeMiddleware()]
                    )
                )
            case .coreAPIStubTracing:
                CoreAPIClient(
                    session: makeStubSession(
                        baseURL: baseURL,
                        middlewares: [ObservabilityBridge.tracing.makeMiddleware()]
                    )
                )
        #endif
        #if AsyncHTTPClient
            case .coreAPIAsyncHTTPClient:
                CoreAPIAsyncHTTPClientClient(baseURL: baseURL)
            case .asyncHTTPClient:
                AsyncHTTPClientClient(baseURL: baseURL)
            case .asyncHTTPClientDefault:
                AsyncHTTPClientClient(baseURL: baseURL, setup: .defaultConfiguration)
            case .asyncHTTPClientShared:
                AsyncHTTPClientClient(baseURL: baseURL, setup: .shared)
        #endif
        #if AsyncHTTPClient && Observability
            case .coreAPIAsyncHTTPClientLogging:
                CoreAPIAsyncHTTPClientClient(
                    baseURL: baseURL,
                    middlewares: [ObservabilityBridge.logging.makeMiddleware()]
                )
            case .coreAPIAsyncHTTPClientMetrics:
                CoreAPIAsyncHTTPClientClient(
                    baseURL: baseURL,
                    middlewares: [ObservabilityBridge.metrics.makeMiddleware()]
                )
            case .coreAPIAsyncHTTPClientTracing:
                CoreAPIAsyncHTTPClientClient(
                    baseURL: baseURL,
                    middlewares: [ObservabilityBridge.tracing.makeMiddleware()]
                )
        #endif
        #if OpenAPI
            case .coreAPIAsyncHTTPClientNote:
                CoreAPINoteClient(baseURL: baseURL)
            case .openAPIBridge:
                OpenAPIBridgeClient(baseURL: baseURL)
            case .openAPIAsyncHTTPClient:
                OpenAPIAsyncHTTPClientClient(baseURL: baseURL)
        #endif
        }
    }
}
