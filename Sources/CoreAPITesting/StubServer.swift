public import CoreAPI

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// An in-process HTTP server for unit tests: routes requests of one session to canned replies and
/// records every request.
///
/// It works through ``StubURLProtocol``, installed per session in the configuration's
/// `protocolClasses`, and routes by a header field added below the middleware chain, so tests can run
/// in parallel, each with its own server. It exercises the URLSession path; for unit tests of a
/// service module, ``StubTransport`` is simpler and sees every body.
///
/// ```swift
/// let server = StubServer()
/// server.on(.get, "/users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
/// let session = server.makeSession(hosts: ["api": "https://api.test"])
/// let user = try await session.perform(GetUser(id: 42))
/// #expect(server.requests.count == 1)
/// ```
public final class StubServer: Sendable {
    /// Answers a request; the handler may throw, which fails the request as a transport error.
    public typealias Handler = @Sendable (StubTransport.RecordedRequest) throws -> CannedResponse

    private let routes = StubRoutes<Handler>()
    /// The reply for requests no route matches: `404` with an empty body by default.
    public let fallback: CannedResponse
    let id = UUID().uuidString

    /// Creates a server with no routes.
    public init(fallback: CannedResponse = .status(404)) {
        self.fallback = fallback
        StubURLProtocol.register(self)
    }

    deinit {
        StubURLProtocol.unregister(id)
    }

    /// Answers `method` requests whose path equals `path`, or starts with it when it ends in `*`. A
    /// later route wins over an earlier one for the same request.
    public func on(_ method: HTTPMethod, _ path: String, reply: CannedResponse) {
        routes.add(method, path) { _ in reply }
    }

    /// Answers requests of any method whose path matches `path`; see ``on(_:_:reply:)``.
    public func on(_ path: String, reply: CannedResponse) {
        routes.add(nil, path) { _ in reply }
    }

    /// Answers matching `method` requests with `handler`; see ``on(_:_:reply:)``.
    public func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        routes.add(method, path, handler)
    }

    /// Answers requests of any method whose path matches `path` with `handler`.
    public func on(_ path: String, handler: @escaping Handler) {
        routes.add(nil, path, handler)
    }

    /// Every request received so far, in order.
    public var requests: [StubTransport.RecordedRequest] {
        routes.requests
    }

    /// Forgets the recorded requests.
    public func clearRequests() {
        routes.clearRequests()
    }

    /// `base` (by default CoreAPI's default configuration) routed to this server.
    ///
    /// The routing goes through a header field in `httpAdditionalHeaders`, which an `ApiSession` made
    /// with this configuration also lists in its `ApiSession.headers`; ``makeSession(hostProvider:headers:middlewares:)``
    /// adds the field below the middleware chain instead, where no log, cURL line or recording sees it.
    public func makeConfiguration(
        base: URLSessionConfiguration = ApiSession.makeDefaultConfiguration()
    ) -> URLSessionConfiguration {
        let configuration = base
        configuration.protocolClasses = [StubURLProtocol.self]
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[StubURLProtocol.routingHeader] = id
        configuration.httpAdditionalHeaders = headers
        return configuration
    }

    /// A session whose requests this server answers.
    public func makeSession(
        hostProvider: any HostProvider,
        headers: Headers = Headers(),
        middlewares: [any Middleware] = []
    ) -> ApiSession {
        let configuration = ApiSession.makeDefaultConfiguration()
        configuration.protocolClasses = [StubURLProtocol.self]
        return ApiSession(
            hostProvider: hostProvider,
            transport: URLSessionTransport(
                configuration: configuration,
                addedHeaders: [(StubURLProtocol.routingHeader, id)]
            ),
            ownsTransport: true,
            headers: headers,
            middlewares: middlewares,
            policy: SessionPolicy(),
            defaults: CallOptions()
        )
    }

    /// A session whose requests this server answers, with hosts from a dictionary.
    public func makeSession(hosts: [String: String], middlewares: [any Middleware] = []) -> ApiSession {
        makeSession(hostProvider: DictionaryHostProvider(hosts), middlewares: middlewares)
    }

    /// Records `request` and returns the reply of the newest matching route.
    func respond(to request: StubTransport.RecordedRequest) throws -> CannedResponse {
        try routes.record(request)?(request) ?? fallback
    }
}
