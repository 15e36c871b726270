public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A mixin that makes a `Decodable` model an `ApiResponse` decoded from a JSON body.
///
/// Each type has its own ``decoder``: override it to set date or key strategies for that model.
///
/// ```swift
/// struct User: JsonApiResponse {
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
public protocol JsonApiResponse: ApiResponse, Decodable {
    /// The decoder for this type; a shared default `JSONDecoder` unless overridden.
    static var decoder: JSONDecoder { get }
}

extension JsonApiResponse {
    /// A shared `JSONDecoder` with default strategies.
    public static var decoder: JSONDecoder { JSONDefaults.decoder }

    /// Decodes the body with ``decoder``, throwing the `DecodingError` on failure.
    public static func decodeResponse(response: HTTPURLResponse, data: Data) throws -> Self {
        try decoder.decode(Self.self, from: data)
    }

    /// Decodes the body with ``decoder``, or `nil` on failure; prefer ``decodeResponse(response:data:)``,
    /// which keeps the reason.
    public static func makeResponse(response: HTTPURLResponse, data: Data) -> Self? {
        try? decodeResponse(response: response, data: data)
    }
}

/// A JSON array of models decodes as an array response.
extension Array: ApiResponse where Element: JsonApiResponse {}
/// A JSON array of models decodes as an array response.
extension Array: JsonApiResponse where Element: JsonApiResponse {}

enum JSONDefaults {
    static let decoder = JSONDecoder()
}
