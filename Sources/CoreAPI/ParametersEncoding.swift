#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Puts a method's encodable parameters into the request being built.
///
/// Implementations are stateless values, safe to share across concurrent requests. CoreAPI ships
/// ``JsonParametersEncoder`` (`.json`) and ``QueryParametersEncoder`` (`.query`).
public protocol ParametersEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it (URL query, body and `Content-Type`).
    /// - Parameters:
    ///   - parameters: The value whose encoding becomes the parameters, usually the ``ApiMethod`` itself.
    ///   - request: The request being built; its URL and HTTP method are already set.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)`` when
    ///   the parameters cannot be encoded; nothing is sent then.
    func encode(_ parameters: any Encodable, in request: URLRequest) throws -> URLRequest
}

extension ParametersEncoding where Self == JsonParametersEncoder {
    /// A JSON body with default strategies.
    public static var json: JsonParametersEncoder { JsonParametersEncoder() }
}

extension ParametersEncoding where Self == QueryParametersEncoder {
    /// The query for `GET`, `HEAD` and `DELETE`, a form body otherwise, with default strategies.
    public static var query: QueryParametersEncoder { QueryParametersEncoder() }
}

extension ApiError {
    /// Wraps an encoding failure as an invalid request, keeping the coding path in the text.
    static func encoding(_ error: any Error) -> ApiError {
        if let error = error as? ApiError { return error }
        if case EncodingError.invalidValue(_, let context) = error {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .invalidRequest(
                .encoding(path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)")
            )
        }
        return .invalidRequest(.encoding(String(describing: error)))
    }
}
