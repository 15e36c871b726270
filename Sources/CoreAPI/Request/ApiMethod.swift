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
    /// `GET`, `HEAD` and `DELETE` and ``JsonParametersEncoder`` (a JSON body) for every other method.
    var parametersEncoding: any ParametersEncoding { get }
    /// Header fields of this method; empty by default. They override the session's for the same names.
    var headers: Headers { get }
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
}

extension ApiMethod {
    /// `GET`.
    public var httpMethod: HTTPMethod { .get }
    /// Empty: the host itself.
    public var path: String { "" }
    /// ``QueryParametersEncoder`` for `GET`, `HEAD` and `DELETE`, ``JsonParametersEncoder`` otherwise,
    /// each with default strategies.
    public var parametersEncoding: any ParametersEncoding {
        httpMethod.prefersQueryParameters ? defaultQueryEncoding : defaultJSONEncoding
    }
    /// No headers.
    public var headers: Headers { Headers() }
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

/// The default encoders, boxed once: an encoder is too large for an existential's inline buffer, so
/// making one for every call would allocate its box every time, where a copy of this one is a reference.
private let defaultQueryEncoding: any ParametersEncoding = QueryParametersEncoder()
private let defaultJSONEncoding: any ParametersEncoding = JsonParametersEncoder()
