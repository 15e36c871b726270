public import Foundation

/// The measurements of one successful call.
public struct RequestMetrics: Sendable, Hashable {
    /// The method's type name.
    public var methodName: String
    /// The HTTP method.
    public var httpMethod: HTTPMethod
    /// The URL without query, fragment or credentials.
    public var url: URL?
    /// The status code.
    public var statusCode: Int
    /// How long the call took, from this middleware to the end of the response body.
    public var duration: Duration
    /// The bytes of the request body held in memory (0 for bodies uploaded from a file).
    public var requestBodyBytes: Int
    /// The bytes of the response body, after content decoding.
    public var responseBodyBytes: Int
}
