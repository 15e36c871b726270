public import Foundation

/// One failed call, as an ``ObserverMiddleware`` reports it. It holds no header values and no query,
/// so it is safe to log.
public struct ApiFailure: Sendable {
    /// The method's type name.
    public var methodName: String
    /// The HTTP method.
    public var httpMethod: HTTPMethod
    /// The URL without query, fragment or credentials.
    public var url: URL?
    /// The status code, when a response arrived.
    public var statusCode: Int?
    /// The error: an ``ApiError`` (for a status, ``ApiError/unacceptableStatus(_:)`` or
    /// ``ApiError/unauthorized(_:)``), or a middleware's own error.
    public var error: any Error
    /// How long the call took.
    public var duration: Duration

    /// What kind of failure it is, for handling that does not need the details.
    public var category: FailureCategory { FailureCategory(error) }
}
