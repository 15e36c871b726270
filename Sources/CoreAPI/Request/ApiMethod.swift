public import Foundation

/// One API call, declared as a value.
///
/// A method names its host key, its ``path``, its HTTP method and headers; everything else has a
/// default. It is itself `Encodable`: what its `encode(to:)` writes is what is sent as parameters —
/// in the query of `GET`, `HEAD` and `DELETE`, as a JSON body otherwise — so a property used only in the
/// path is marked ``Excluded``. Its `Response` decides how the reply is turned into a value.
///
/// ```swift
/// struct GetUser: ApiMethod {
///     typealias Response = Data
///     @Excluded var id: Int
///     var hostProviderKey: String { "api" }
///     var path: String { "/users/\(id)" }
/// }
/// ```
///
/// A method whose URL is not a host plus a path implements ``urlInfo(from:)`` instead.
public protocol ApiMethod: Encodable, Sendable {
    /// The type the reply becomes.
    associatedtype Response: ApiResponse
    /// What the call returns: ``Response`` unless ``finalize(_:)`` turns it into something else.
    associatedtype Output: Sendable = Response

    /// The key the ``HostProvider`` maps to a host.
    var hostProviderKey: String { get }
    /// The HTTP method; `GET` by default.
    var httpMethod: HTTPMethod { get }
    /// The path below the host, such as `/users/7`; empty (the host itself) by default. The default
    /// ``urlInfo(from:)`` uses it. Declare it as a computed property: a stored one would also be sent as
    /// a parameter.
    var path: String { get }
    /// How the parameters are encoded: by default, ``QueryParametersEncoder`` (the URL query) for
    /// `GET`, `HEAD` and `DELETE` and ``JsonParametersEncoder`` (a JSON body) for every other method.
    var parametersEncoding: any ParametersEncoding { get }
    /// Header fields of this method; empty by default. They override the session's for the same names.
    var headers: Headers { get }
    /// A body sent as it is, bytes or a file; `nil` by default. When set, the parameters go in the query.
    var body: RequestBody? { get }
    /// The idle timeout in seconds: the longest wait for the response to start or for more of its body.
    /// `nil`, zero or a negative value means the session's; `.infinity` means none.
    var timeout: TimeInterval? { get }
    /// The status codes accepted as success; `200..<300` by default.
    var acceptableStatusCodes: AcceptableStatusCodes { get }
    /// The errors this method fails with for statuses of its own, in place of the generic status error;
    /// none by default. See ``StatusErrors``.
    var statusErrors: StatusErrors { get }
    /// Messages for statuses this method does not accept, carried by its status errors and shown in
    /// their descriptions; they win over the session's ``ApiSession/statusMessages``. None by default.
    var statusMessages: [HTTPStatus: String] { get }
    /// The largest response body this method accepts, in bytes; `nil` (the default) means the session's
    /// ``TransportPolicy/maximumResponseSize``.
    var maximumResponseSize: Int64? { get }
    /// The longest this method may take in the network, in seconds; `nil` (the default) means the
    /// session's ``TransportPolicy/deadline``.
    var deadline: TimeInterval? { get }
    /// Middlewares for this method alone, run after the session's (closer to the network); none by default.
    var middlewares: [any Middleware] { get }
    /// Whether logging middlewares report this method; `true` by default. Turn it off for calls too
    /// frequent or too sensitive to log.
    var isLoggingEnabled: Bool { get }
    /// A key that names this call while it is in flight, to find or cancel it
    /// (``ApiSession/cancelCalls(withKey:)``); `nil` by default. With ``sharesIdenticalCalls`` a key is
    /// also the method's word that one answer serves every identical request with that key, whatever
    /// its HTTP method: without a key only `GET` and `HEAD` requests share.
    var callKey: CallKey? { get }
    /// Whether a call joins an identical exchange already in flight instead of sending its own request;
    /// `false` by default. Identical means the same on the wire: the same method type, ``callKey`` and
    /// limits, and a request with the same HTTP method, final URL (the host as resolved for this call),
    /// header fields — the session's, the method's and those every middleware set — and body bytes.
    /// Only `GET` and `HEAD` requests share, unless the method gives a ``callKey``; a body sent from a
    /// file or a stream never shares. See <doc:WorkingWithManyCalls>.
    ///
    /// Each caller runs its own middleware chain and processes the answer itself; only the exchange
    /// with the server (and its redirects) is shared, run with the first caller's limits and progress
    /// closure (a caller that joins gets no progress), its priority and its task-local values. A caller
    /// that is cancelled leaves at once; the exchange is cancelled when its last caller leaves.
    var sharesIdenticalCalls: Bool { get }
    /// How an ``HTTPCacheMiddleware`` in the chain answers this method: by HTTP's rules
    /// (``CachePolicy/useHTTPSemantics``, the default), or from the store, or from the network alone.
    var cachePolicy: CachePolicy { get }

    /// Where the request goes; by default ``path`` below the host of ``hostProviderKey``.
    /// - Throws: the host provider's error for an unknown key; the request is then not sent.
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo

    /// Turns the parsed response into what the call returns: unwrap a field, convert a transfer model
    /// into a domain model, load what it refers to. Runs after a successful parse, before the call returns.
    /// - Throws: Any error, which the call throws as it is.
    func finalize(_ response: Response) async throws -> Output

    /// Runs after ``finalize(_:)`` succeeded and before the call returns, to store or index the result;
    /// does nothing by default. It cannot change or fail the result.
    func postProcess(_ output: Output) async
}

extension ApiMethod {
    /// `GET`.
    public var httpMethod: HTTPMethod { .get }
    /// Empty: the host itself.
    public var path: String { "" }
    /// ``QueryParametersEncoder`` for `GET`, `HEAD` and `DELETE`, ``JsonParametersEncoder`` otherwise,
    /// each with default strategies.
    public var parametersEncoding: any ParametersEncoding {
        httpMethod.prefersQueryParameters ? QueryParametersEncoder() : JsonParametersEncoder()
    }
    /// No headers.
    public var headers: Headers { Headers() }
    /// `nil`: the parameters encoding decides the body.
    public var body: RequestBody? { nil }
    /// `nil`: the session's timeout.
    public var timeout: TimeInterval? { nil }
    /// `200..<300`.
    public var acceptableStatusCodes: AcceptableStatusCodes { .successful }
    /// None.
    public var statusErrors: StatusErrors { StatusErrors() }
    /// None.
    public var statusMessages: [HTTPStatus: String] { [:] }
    /// `nil`: the session's limit.
    public var maximumResponseSize: Int64? { nil }
    /// `nil`: the session's deadline.
    public var deadline: TimeInterval? { nil }
    /// None.
    public var middlewares: [any Middleware] { [] }
    /// `true`.
    public var isLoggingEnabled: Bool { true }
    /// `nil`: no key.
    public var callKey: CallKey? { nil }
    /// `false`: every call sends its own request.
    public var sharesIdenticalCalls: Bool { false }
    /// ``CachePolicy/useHTTPSemantics``.
    public var cachePolicy: CachePolicy { .useHTTPSemantics }

    /// The response itself, when the method returns its ``Response``.
    public func finalize(_ response: Response) async throws -> Output where Output == Response {
        response
    }

    /// Nothing.
    public func postProcess(_ output: Output) async {}

    /// ``path`` below the host the provider gives for ``hostProviderKey``.
    /// - Throws: The host provider's error for an unknown key.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
}
