import Foundation

/// Puts a method's encodable parameters into the request being built.
///
/// Implementations are stateless values, safe to share across concurrent requests. CoreAPI ships
/// ``JSONParametersEncoder`` (`.json`), ``QueryParametersEncoder`` (`.query`), ``FormParametersEncoder``
/// (`.form`) and ``MultipartFormDataEncoder`` (`.multipart`). An encoding whose body is large may put
/// it in a file (``ApiRequest/Body/file(_:)``): transports stream it from there.
public protocol ParametersEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it (URL query, body and `Content-Type`).
    /// - Parameters:
    ///   - parameters: The value whose encoding becomes the parameters, usually the ``ApiMethod`` itself.
    ///   - request: The request being built; its URL, method and header fields are already set.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)`` when
    ///   the parameters cannot be encoded; nothing is sent then.
    func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest
}
