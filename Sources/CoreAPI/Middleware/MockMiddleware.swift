public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Answers requests with canned responses instead of the network: per method type or per URL path
/// pattern, with a status, headers, a body from data or a fixture file, a delay, or an error.
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
    public typealias Handler = @Sendable (URLRequest, MiddlewareContext) throws -> MockResponse

    private struct Rule {
        let matches: @Sendable (URLRequest, MiddlewareContext) -> Bool
        let handler: Handler
    }

    private struct State {
        var rules: [Rule] = []
        var requests: [URLRequest] = []
    }

    private let state = LockedValue(State())

    /// Whether requests no rule matches go on to the network (`true`) or get a `404` (`false`).
    public let passesUnmatchedRequests: Bool

    /// Creates a mock with no rules.
    /// - Parameter passesUnmatchedRequests: Whether unmatched requests go on to the network.
    public init(passesUnmatchedRequests: Bool = false) {
        self.passesUnmatchedRequests = passesUnmatchedRequests
    }

    /// Answers every call of the method type `type` with `reply`.
    public func on<M: ApiMethod>(_ type: M.Type, reply: MockResponse) {
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
    public func on(_ method: HTTPMethod? = nil, _ pattern: String, reply: MockResponse) {
        on(method, pattern) { _, _ in reply }
    }

    /// Answers requests whose path matches `pattern` with what `handler` returns.
    public func on(_ method: HTTPMethod? = nil, _ pattern: String, handler: @escaping Handler) {
        let matcher = PathPattern(pattern)
        add(
            Rule(
                matches: { request, _ in
                    if let method, request.httpMethod != method.rawValue { return false }
                    return matcher.matches(request.url?.path ?? "")
                },
                handler: handler
            )
        )
    }

    /// The requests this mock answered, in order: those a rule matched and those it answered with a `404`
    /// because none did. Requests passed on to the network are not listed.
    public var requests: [URLRequest] {
        state.withLock { $0.requests }
    }

    private func add(_ rule: Rule) {
        state.withLock { $0.rules.append(rule) }
    }

    /// Answers from the newest matching rule; without one, passes the request on or answers `404`.
    public func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let rule = state.withLock { $0.rules.last { $0.matches(request, context) } }
        if rule == nil, passesUnmatchedRequests {
            return try await next(request)
        }
        state.withLock { $0.requests.append(request) }
        guard let rule else {
            return try await MockResponse.status(404).makeResponse(for: request)
        }
        return try await rule.handler(request, context).makeResponse(for: request)
    }
}

/// A canned reply of a ``MockMiddleware``.
public struct MockResponse: Sendable {
    private enum Body: Sendable {
        case data(Data)
        case file(URL)
    }

    private var outcome: Result<(statusCode: Int, headers: Headers, body: Body), ApiError>
    /// How long to wait before answering.
    public var delay: Duration = .zero

    private init(statusCode: Int, headers: Headers, body: Body) {
        outcome = .success((statusCode, headers, body))
    }

    private init(error: ApiError) {
        outcome = .failure(error)
    }

    /// A response with a body.
    public static func data(_ data: Data, statusCode: Int = 200, headers: Headers = Headers()) -> MockResponse {
        MockResponse(statusCode: statusCode, headers: headers, body: .data(data))
    }

    /// A JSON body with `Content-Type: application/json`.
    public static func json(_ text: String, statusCode: Int = 200, headers: Headers = Headers()) -> MockResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.set("application/json", for: "Content-Type") }
        return .data(Data(text.utf8), statusCode: statusCode, headers: headers)
    }

    /// A UTF-8 text body with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, statusCode: Int = 200, headers: Headers = Headers()) -> MockResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers.set("text/plain; charset=utf-8", for: "Content-Type") }
        return .data(Data(text.utf8), statusCode: statusCode, headers: headers)
    }

    /// A body read from a fixture file when the reply is made; its `Content-Type` is inferred from the
    /// file's extension unless given. An unreadable file fails the call with
    /// ``ApiError/InvalidRequestReason/unreadableFile(path:)``.
    public static func file(_ url: URL, statusCode: Int = 200, headers: Headers = Headers()) -> MockResponse {
        var headers = headers
        if !headers.contains("Content-Type") {
            headers.set(Attachment.mimeType(forFilename: url.lastPathComponent), for: "Content-Type")
        }
        return MockResponse(statusCode: statusCode, headers: headers, body: .file(url))
    }

    /// A status code without a body.
    public static func status(_ statusCode: Int, headers: Headers = Headers()) -> MockResponse {
        .data(Data(), statusCode: statusCode, headers: headers)
    }

    /// A failure instead of a response, such as `.timeout` or `.transport(.init(kind: .offline))`.
    public static func failure(_ error: ApiError) -> MockResponse {
        MockResponse(error: error)
    }

    /// This reply, answered after `delay`.
    public func delayed(by delay: Duration) -> MockResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    func makeResponse(for request: URLRequest) async throws -> RawResponse {
        if delay > .zero {
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw ApiError.cancelled
            }
        }
        let (statusCode, headers, body) = try outcome.get()
        let url = request.url ?? URL(fileURLWithPath: "/")
        switch body {
        case .data(let data):
            return try RawResponse(url: url, statusCode: statusCode, headers: headers, data: data)
        case .file(let file):
            guard let data = try? Data(contentsOf: file) else {
                throw ApiError.invalidRequest(.unreadableFile(path: file.path))
            }
            return try RawResponse(url: url, statusCode: statusCode, headers: headers, data: data)
        }
    }
}

/// A path pattern where `*` matches any run of characters.
struct PathPattern: Sendable {
    private let pieces: [Substring]

    init(_ pattern: String) {
        pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
    }

    func matches(_ path: String) -> Bool {
        guard pieces.count > 1 else { return path == pieces.first.map(String.init) }
        var rest = Substring(path)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for (index, piece) in pieces.enumerated().dropFirst() {
            if index == pieces.count - 1 {
                return piece.isEmpty || rest.hasSuffix(piece)
            }
            guard !piece.isEmpty else { continue }
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
