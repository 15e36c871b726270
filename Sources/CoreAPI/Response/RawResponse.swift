public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An HTTP response and its body, before status validation and parsing.
public struct RawResponse: Sendable {
    /// The response.
    public var response: HTTPURLResponse
    /// The body, decoded from any content coding.
    public var data: Data
    /// How long the exchange that brought it took, set by the session around the transport; `nil` for a
    /// response a middleware made.
    package var exchangeDuration: Duration?

    /// Creates a raw response.
    public init(response: HTTPURLResponse, data: Data) {
        self.response = response
        self.data = data
    }

    /// A response built from parts, for middlewares and transports that answer without the network.
    /// - Parameters:
    ///   - url: The URL the response is for.
    ///   - statusCode: The status code, 100 to 999.
    ///   - headers: The header fields; repeated names are joined with `, `.
    ///   - data: The body.
    /// - Throws: ``ApiError/invalidRequest(_:)`` for a status code outside 100–999, or one
    ///   `HTTPURLResponse` rejects.
    public init(url: URL, statusCode: Int, headers: Headers = Headers(), data: Data = Data()) throws(ApiError) {
        var fields: [String: String] = [:]
        for field in headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        guard (100...999).contains(statusCode),
            let response = HTTPURLResponse(
                url: url,
                statusCode: statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: fields
            )
        else {
            throw ApiError.invalidRequest(.encoding("status code \(statusCode) is not a valid HTTP status"))
        }
        self.response = response
        self.data = data
    }

    /// The status code.
    public var statusCode: Int { response.statusCode }

    /// The response's header fields.
    public var headers: Headers { Headers(httpURLResponse: response) }
}
