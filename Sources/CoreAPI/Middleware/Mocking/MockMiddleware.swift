#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Answers requests with canned responses instead of the network: per method type or per URL path
/// pattern, with a ``CannedResponse`` — a status, headers, a body from data or a fixture file, a delay,
/// or a failure, which arrives as the session reports it from a transport.
///
/// Use it for a sandbox environment of an app (the example's catalog sandbox is one), for demos and
/// for previews. Requests that no rule matches go on to the network, or fail with a `404` when
/// ``passesUnmatchedRequests`` is `false`. A later rule wins over an earlier one, so register
/// catch-all patterns first.
///
/// ```swift
/// let mock = MockMiddleware()
/// mock.on(GetUser.self, reply: .json(#"{"id": 42, "name": "Ada"}"#))
/// mock.on(.get, "/users/*", reply: .status(404))
/// let session = ApiSession(hostProvider: hosts, middlewares: [mock])
/// ```
public final class MockMiddleware: Middleware {
    /// Builds a reply from the request.
    public typealias Handler = @Sendable (ApiRequest, MiddlewareContext) throws -> CannedResponse

    private struct Rule {
        let matches: @Sendable (ApiRequest, MiddlewareContext) -> Bool
        let handler: Handler
    }

    private struct State {
        var rules: [Rule] = []
        var requests: [ApiRequest] = []
        var isEnabled = true
    }

    private let state = LockedValue(State())

    /// Whether requests no rule matches go on to the network (`true`) or get a `404` (`false`).
    public let passesUnmatchedRequests: Bool

    /// Creates a mock with no rules.
    /// - Parameter passesUnmatchedRequests: Whether unmatched requests go on to the network.
    public init(passesUnmatchedRequests: Bool = false) {
        self.passesUnmatchedRequests = passesUnmatchedRequests
    }

    /// Whether the mock answers: `true` (the default) sends calls to its rules; `false` passes every
    /// request on to the network, unrecorded, until it is set again. Flip it while the session is in
    /// use to switch an app between its sandbox and the real service; a call already past the mock
    /// keeps the answer it got.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// Answers every call of the method type `type` with `reply`.
    public func on<M: ApiMethod>(_ type: M.Type, reply: CannedResponse) {
        on(type) { _, _ in reply }
    }

    /// Answers every call of the method type `type` with what `handler` returns.
    public func on<M: ApiMethod>(_ type: M.Type, handler: @escaping Handler) {
        add(Rule(matches: { _, context in Swift.type(of: context.method) == type }, handler: handler))
    }

    /// Answers requests whose path matches `pattern` with `reply`.
    /// - Parameters:
    ///   - method: The HTTP method to match, or `nil` for any.
    ///   - pattern: A URL path; `*` matches any run of characters, `/` included.
    ///   - reply: The response.
    public func on(_ method: HTTPMethod? = nil, _ pattern: String, reply: CannedResponse) {
        on(method, pattern) { _, _ in reply }
    }

    /// Answers requests whose path matches `pattern` with what `handler` returns.
    public func on(_ method: HTTPMethod? = nil, _ pattern: String, handler: @escaping Handler) {
        let matcher = PathPattern(pattern)
        add(
            Rule(
                matches: { request, _ in
                    if let method, request.method != method { return false }
                    return matcher.matches(request.url.path)
                },
                handler: handler
            )
        )
    }

    /// The requests this mock answered, in order: those a rule matched and those it answered with a `404`
    /// because none did. Requests passed on to the network are not listed.
    public var requests: [ApiRequest] {
        state.withLock { $0.requests }
    }

    private func add(_ rule: Rule) {
        state.withLock { $0.rules.append(rule) }
    }

    /// Answers from the newest matching rule; without one, passes the request on or answers `404`.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let (enabled, rule) = state.withLock { state in
            (state.isEnabled, state.isEnabled ? state.rules.last { $0.matches(request, context) } : nil)
        }
        if !enabled || rule == nil && passesUnmatchedRequests {
            return try await next(request)
        }
        state.withLock { $0.requests.append(request) }
        guard let rule else {
            return try await Self.answer(request, with: .status(404))
        }
        return try await Self.answer(request, with: rule.handler(request, context))
    }

    /// The response `reply` makes for `request`, after its delay.
    /// - Throws: `ApiError.cancelled` when the call is cancelled during the delay; the reply's failure as
    ///   the session reports it from a transport (see ``CannedResponse``); or
    ///   ``ApiError/InvalidRequestReason/unreadableFile(path:)``.
    private static func answer(_ request: ApiRequest, with reply: CannedResponse) async throws -> RawResponse {
        if reply.delay > .zero {
            do {
                try await Task.sleep(for: reply.delay)
            } catch {
                throw ApiError.cancelled
            }
        }
        switch reply.make() {
        case .success(let parts):
            return try RawResponse(
                url: request.url,
                statusCode: parts.statusCode,
                headers: parts.headers,
                data: parts.body
            )
        case .failure(let error):
            throw ApiError(error).namingEndpoint(of: request.url)
        }
    }
}
