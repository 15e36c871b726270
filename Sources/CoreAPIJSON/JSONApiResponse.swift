public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A mixin that makes a `Decodable` model an `ApiResponse` decoded from a JSON body.
///
/// Each type has its own ``decoder``: override it to set date or key strategies for that model.
///
/// ```swift
/// struct User: JSONApiResponse {
///     let id: Int
///     let createdAt: Date
///     static var decoder: JSONDecoder {
///         let decoder = JSONDecoder()
///         decoder.keyDecodingStrategy = .convertFromSnakeCase
///         decoder.dateDecodingStrategy = .iso8601
///         return decoder
///     }
/// }
/// ```
///
/// A decoding failure becomes `ApiError.mapping` whose cause is the `DecodingError`,
/// coding path included.
public protocol JSONApiResponse: ApiResponse, Decodable {
    /// The decoder for this type; a shared default `JSONDecoder` unless overridden.
    static var decoder: JSONDecoder { get }
    /// Where the model sits in the body; ``JSONEnvelope/none`` (the whole body) unless overridden.
    static var envelope: JSONEnvelope { get }
}

extension JSONApiResponse {
    /// A shared `JSONDecoder` with default strategies.
    public static var decoder: JSONDecoder { JSONDefaults.decoder }

    /// ``JSONEnvelope/none``: the whole body is the model.
    public static var envelope: JSONEnvelope { .none }

    /// `nil`: any media type; list `application/json` to refuse others with a typed error.
    public static var acceptableContentTypes: [String]? { nil }

    /// Decodes the body with ``decoder``, from inside the ``envelope`` when there is one.
    /// - Throws: The `DecodingError`, or a ``JSONEnvelope/Failure`` when the envelope cannot be opened.
    public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
        if case .none = envelope.rule {
            return try decoder.decode(Self.self, from: data)
        }
        return try decodeInEnvelope(data)
    }

    /// Decodes the model from inside ``envelope``; apart, so a body without one never looks up the
    /// reader's generic type.
    @inline(never)
    private static func decodeInEnvelope(_ data: Data) throws -> Self {
        try decoder.decode(EnvelopeReader<Self>.self, from: data).model
    }

    /// Decodes the body with ``decoder``, or `nil` on failure; prefer ``JSONApiResponse/decodeResponse(response:data:)``,
    /// which keeps the reason.
    public static func makeResponse(response: ResponseHead, data: Data) -> Self? {
        try? decodeResponse(response: response, data: data)
    }
}

/// A JSON array of models decodes as an array response.
extension Array: ApiResponse where Element: JSONApiResponse {}
/// A JSON array of models decodes as an array response, with the element type's decoder.
extension Array: JSONApiResponse where Element: JSONApiResponse {
    /// The element type's ``JSONApiResponse/decoder``, so its key and date strategies apply.
    public static var decoder: JSONDecoder { Element.decoder }
}

enum JSONDefaults {
    static let decoder = JSONDecoder()
}
