public import Foundation

/// One API call, declared as a value.
///
/// A method names its host key, HTTP method, parameters encoding and headers, and says where it goes
/// through ``urlInfo(from:)``. It is itself `Encodable`: what its `encode(to:)` writes is what is sent
/// as parameters, so a custom `encode(to:)` keeps a property (such as a token) out of them. Its
/// `Response` decides how the reply is turned into a value.
///
/// ```swift
/// struct GetUser: ApiMethod {
///     typealias Response = User
///     let id: Int
///     var hostProviderKey: String { "api" }
///     func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
///         .components(host: try hostProvider.host(for: hostProviderKey), path: "/users/\(id)")
///     }
///     func encode(to encoder: any Encoder) throws {}
/// }
/// ```
public protocol ApiMethod: Encodable, Sendable {
    /// The type the reply becomes.
    associatedtype Response: ApiResponse

    /// The key the ``HostProvider`` maps to a host.
    var hostProviderKey: String { get }
    /// The HTTP method; `GET` by default.
    var httpMethod: HTTPMethod { get }
    /// How the parameters are encoded; ``QueryParametersEncoder`` by default (query for `GET`, `HEAD`
    /// and `DELETE`, form body otherwise).
    var parametersEncoding: any ParametersEncoding { get }
    /// Header fields of this method; empty by default. They override the session's for the same names.
    var headers: Headers { get }
    /// The idle timeout in seconds: the longest wait for the response to start or for more of its body.
    /// `nil`, zero or a negative value means the session's; `.infinity` means none.
    var timeout: TimeInterval? { get }
    /// The status codes accepted as success; `200..<300` by default.
    var acceptableStatusCodes: AcceptableStatusCodes { get }
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

    /// Where the request goes, usually `.components(host: try hostProvider.host(for: hostProviderKey), path: …)`.
    /// - Throws: the host provider's error for an unknown key; the request is then not sent.
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo
}

extension ApiMethod {
    /// `GET`.
    public var httpMethod: HTTPMethod { .get }
    /// ``QueryParametersEncoder`` with default strategies.
    public var parametersEncoding: any ParametersEncoding { QueryParametersEncoder() }
    /// No headers.
    public var headers: Headers { Headers() }
    /// `nil`: the session's timeout.
    public var timeout: TimeInterval? { nil }
    /// `200..<300`.
    public var acceptableStatusCodes: AcceptableStatusCodes { .successful }
    /// `nil`: the session's limit.
    public var maximumResponseSize: Int64? { nil }
    /// `nil`: the session's deadline.
    public var deadline: TimeInterval? { nil }
    /// None.
    public var middlewares: [any Middleware] { [] }
    /// `true`.
    public var isLoggingEnabled: Bool { true }
}
