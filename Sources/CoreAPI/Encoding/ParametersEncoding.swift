#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Puts a method's encodable parameters into the request being built.
///
/// Implementations are stateless values, safe to share across concurrent requests. CoreAPI ships
/// ``JsonParametersEncoder`` (`.json`), ``QueryParametersEncoder`` (`.query`), ``FormParametersEncoder``
/// (`.form`) and ``MultipartFormDataEncoder`` (`.multipart`).
public protocol ParametersEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it (URL query, body and `Content-Type`).
    /// - Parameters:
    ///   - parameters: The value whose encoding becomes the parameters, usually the ``ApiMethod`` itself.
    ///   - request: The request being built; its URL and HTTP method are already set.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)`` when
    ///   the parameters cannot be encoded; nothing is sent then.
    func encode(_ parameters: any Encodable, in request: URLRequest) throws -> URLRequest

    /// Returns `request` with `parameters` encoded into it, or with its body in a file to upload from.
    ///
    /// ``ApiSession`` sends requests through this. The default returns ``encode(_:in:)``'s request with
    /// the body in memory; ``MultipartFormDataEncoder`` writes large bodies to a temporary file instead.
    /// - Throws: as ``encode(_:in:)``.
    func encodeRequest(_ parameters: any Encodable, in request: URLRequest) throws -> EncodedRequest
}

extension ParametersEncoding {
    /// The request from ``encode(_:in:)``, body in memory.
    public func encodeRequest(_ parameters: any Encodable, in request: URLRequest) throws -> EncodedRequest {
        EncodedRequest(request: try encode(parameters, in: request))
    }
}
