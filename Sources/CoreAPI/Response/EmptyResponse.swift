public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body is not used: `204 No Content`, `205 Reset Content`, a `HEAD` response or any
/// accepted status with or without a body.
public struct EmptyResponse: ApiResponse, Hashable {
    /// The status code of the response.
    public var statusCode: Int
    /// The response header fields.
    public var headers: Headers

    /// Creates an empty response.
    public init(statusCode: Int = 204, headers: Headers = Headers()) {
        self.statusCode = statusCode
        self.headers = headers
    }

    /// Always succeeds; the body, if any, is ignored.
    public static func makeResponse(response: ResponseHead, data: Data) -> EmptyResponse? {
        EmptyResponse(statusCode: response.statusCode, headers: response.headers)
    }
}
