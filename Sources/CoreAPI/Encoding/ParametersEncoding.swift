public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
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

/// A request with its parameters encoded: the body is in ``request`` or, for large uploads, in ``bodyFile``.
public struct EncodedRequest: Sendable {
    /// A file that holds the request body.
    public struct BodyFile: Sendable, Hashable {
        /// The file's location.
        public var url: URL
        /// The body length in bytes.
        public var length: Int64
        /// Whether the file was made for this request alone and is removed once the request ends
        /// (success, failure or cancellation).
        public var isTemporary: Bool

        /// Creates a body file description.
        public init(url: URL, length: Int64, isTemporary: Bool) {
            self.url = url
            self.length = length
            self.isTemporary = isTemporary
        }
    }

    /// The request; its `httpBody` is `nil` when ``bodyFile`` is set.
    public var request: URLRequest
    /// The file to upload the body from, or `nil` when the body (if any) is in ``request``.
    public var bodyFile: BodyFile?
    /// A body that the session writes to a temporary file for each attempt, when it is sent.
    var pendingBodyFile: PendingBodyFile?

    /// Creates an encoded request.
    public init(request: URLRequest, bodyFile: BodyFile? = nil) {
        self.request = request
        self.bodyFile = bodyFile
    }

    /// Removes the body file when it is temporary — at once, or as soon as no transport reads it any
    /// more; call this when the request will not be sent again.
    public func discardTemporaryFile() {
        if let bodyFile, bodyFile.isTemporary {
            TemporaryBodyFiles.discard(bodyFile.url)
        }
    }
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
