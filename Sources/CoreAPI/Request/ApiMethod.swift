import Foundation

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
    /// ``urlInfo(from:)`` uses it. Declare it as a computed property, or mark a stored one ``Excluded``:
    /// a stored `path` that would also be sent as a parameter fails the call with
    /// ``ApiError/InvalidRequestReason/requirementSentAsParameter(property:)`` before anything is sent.
    var path: String { get }
    /// How the parameters are encoded: by default, ``QueryParametersEncoder`` (the URL query) for
    /// `GET`, `HEAD` and `DELETE` and ``JSONParametersEncoder`` (a JSON body) for every other method.
    var parametersEncoding: any ParametersEncoding { get }
    /// The type of ``headers``: ``Headers``. Inferred from the `headers` a method declares, so that one of
    /// another type (`[String: String]`) is found rather than ignored: the call then fails with
    /// ``ApiError/InvalidRequestReason/unusedSetting(property:write:)`` before anything is sent.
    associatedtype HeaderFields = Headers
    /// Header fields of this method, a ``Headers`` value; empty by default. They override the session's
    /// for the same names.
    var headers: HeaderFields { get }
    /// A body sent as it is, bytes or a file; `nil` by default. When set, the parameters go in the query.
    var body: RequestBody? { get }
    /// The settings of this method's calls — timeout, deadline, size limit, accepted statuses and their
    /// errors, sharing, caching, logging, middlewares — each one the session's unless set; a call can
    /// override them (``ApiSession/perform(_:options:progress:)``). None set by default. See
    /// ``CallOptions``.
    var options: CallOptions { get }

    /// Where the request goes; by default ``path`` below the host of ``hostProviderKey``.
    /// - Throws: the host provider's error for an unknown key; the request is then not sent.
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo

    /// Turns the parsed response into what the call returns: unwrap a field, convert a transfer model
    /// into a domain model, load what it refers to. Runs after a successful parse, before the call returns.
    /// - Throws: Any error, which the call throws as it is.
    func finalize(_ response: Response) async throws -> Output

    /// The error a status the call does not accept becomes, for every method of a family: read the
    /// service's common error body here once, in the family protocol's extension, and every method of
    /// the family fails with it — whatever its ``Response`` is, text, raw bytes and empty responses
    /// included. It runs after the call's own ``CallOptions/statusErrors`` and before the response type's
    /// ``ApiResponse/process(response:data:error:)``; `nil` (the default) leaves the status to them.
    func statusError(for failure: ApiError.StatusFailure) -> (any Error)?

    // Names a newcomer gives a method's settings, which are not settings of a method: each is a
    // requirement only so that a computed property of that name is found. Its type is inferred from what
    // the method declares (`Void` when it declares none), and the first call of a method type that
    // computes one fails with ``ApiError/InvalidRequestReason/unusedSetting(property:write:)`` before
    // anything is sent, saying what to write instead. A stored property of that name is a parameter,
    // sent as any other.

    /// Not a setting: the HTTP method is ``httpMethod``. Inferred from a `method` the type computes.
    associatedtype _Method = Void
    /// Not a setting: the HTTP method is ``httpMethod``; a computed `method` fails the call.
    var method: _Method { get }
    /// Not a setting: inferred from a `timeout` the type computes.
    associatedtype _Timeout = Void
    /// Not a setting: a method's timeout is ``CallOptions/timeout`` in ``options``; a computed `timeout`
    /// fails the call.
    var timeout: _Timeout { get }
    /// Not a setting: inferred from a `deadline` the type computes.
    associatedtype _Deadline = Void
    /// Not a setting: a method's deadline is ``CallOptions/deadline`` in ``options``; a computed
    /// `deadline` fails the call.
    var deadline: _Deadline { get }
    /// Not a setting: inferred from an `acceptableStatusCodes` the type computes.
    associatedtype _AcceptableStatusCodes = Void
    /// Not a setting: a method's accepted statuses are ``CallOptions/acceptableStatusCodes`` in
    /// ``options``; a computed `acceptableStatusCodes` fails the call.
    var acceptableStatusCodes: _AcceptableStatusCodes { get }
    /// Not a setting: inferred from a `statusErrors` the type computes.
    associatedtype _StatusErrors = Void
    /// Not a setting: a method's status errors are ``CallOptions/statusErrors`` in ``options``; a
    /// computed `statusErrors` fails the call.
    var statusErrors: _StatusErrors { get }
    /// Not a setting: inferred from a `middlewares` the type computes.
    associatedtype _Middlewares = Void
    /// Not a setting: a method's middlewares are ``CallOptions/middlewares`` in ``options``; a computed
    /// `middlewares` fails the call.
    var middlewares: _Middlewares { get }
    /// Not a setting: inferred from a `cachePolicy` the type computes.
    associatedtype _CachePolicy = Void
    /// Not a setting: a method's cache policy is ``CallOptions/cachePolicy`` in ``options``; a computed
    /// `cachePolicy` fails the call.
    var cachePolicy: _CachePolicy { get }
    /// Not a setting: inferred from an `isLoggingEnabled` the type computes.
    associatedtype _IsLoggingEnabled = Void
    /// Not a setting: whether a method's calls are logged is ``CallOptions/isLoggingEnabled`` in
    /// ``options``; a computed `isLoggingEnabled` fails the call.
    var isLoggingEnabled: _IsLoggingEnabled { get }
}

extension ApiMethod {
    /// `GET`.
    public var httpMethod: HTTPMethod { .get }
    /// Empty: the host itself.
    public var path: String { "" }
    /// ``QueryParametersEncoder`` for `GET`, `HEAD` and `DELETE`, ``JSONParametersEncoder`` otherwise,
    /// each with default strategies.
    public var parametersEncoding: any ParametersEncoding {
        httpMethod.prefersQueryParameters ? defaultQueryEncoding : defaultJSONEncoding
    }
    /// `nil`: the parameters encoding decides the body.
    public var body: RequestBody? { nil }
    /// None set: the session's settings.
    public var options: CallOptions { CallOptions() }

    /// The response itself, when the method returns its ``Response``.
    public func finalize(_ response: Response) async throws -> Output where Output == Response {
        response
    }

    /// `nil`: the call's status errors and the response type decide.
    public func statusError(for failure: ApiError.StatusFailure) -> (any Error)? { nil }

    /// ``path`` below the host the provider gives for ``hostProviderKey``.
    /// - Throws: The host provider's error for an unknown key.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
}

extension ApiMethod where HeaderFields == Headers {
    /// No headers.
    public var headers: Headers { Headers() }
}

// The defaults of the names that are not settings (see ``ApiMethod``'s requirements): nothing.

extension ApiMethod where _Method == Void {
    /// Nothing: the HTTP method is ``httpMethod``.
    public var method: Void { () }
}

extension ApiMethod where _Timeout == Void {
    /// Nothing: a method's timeout is ``CallOptions/timeout`` in ``options``.
    public var timeout: Void { () }
}

extension ApiMethod where _Deadline == Void {
    /// Nothing: a method's deadline is ``CallOptions/deadline`` in ``options``.
    public var deadline: Void { () }
}

extension ApiMethod where _AcceptableStatusCodes == Void {
    /// Nothing: a method's accepted statuses are ``CallOptions/acceptableStatusCodes`` in ``options``.
    public var acceptableStatusCodes: Void { () }
}

extension ApiMethod where _StatusErrors == Void {
    /// Nothing: a method's status errors are ``CallOptions/statusErrors`` in ``options``.
    public var statusErrors: Void { () }
}

extension ApiMethod where _Middlewares == Void {
    /// Nothing: a method's middlewares are ``CallOptions/middlewares`` in ``options``.
    public var middlewares: Void { () }
}

extension ApiMethod where _CachePolicy == Void {
    /// Nothing: a method's cache policy is ``CallOptions/cachePolicy`` in ``options``.
    public var cachePolicy: Void { () }
}

extension ApiMethod where _IsLoggingEnabled == Void {
    /// Nothing: whether a method's calls are logged is ``CallOptions/isLoggingEnabled`` in ``options``.
    public var isLoggingEnabled: Void { () }
}

/// The default encoders, boxed once: an encoder is too large for an existential's inline buffer, so
/// making one for every call would allocate its box every time, where a copy of this one is a reference.
private let defaultQueryEncoding: any ParametersEncoding = QueryParametersEncoder()
private let defaultJSONEncoding: any ParametersEncoding = JSONParametersEncoder()
