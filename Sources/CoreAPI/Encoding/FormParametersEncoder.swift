public import Foundation

/// Encodes parameters as an `application/x-www-form-urlencoded` body, escaped by the WHATWG form
/// serializer: `A–Z a–z 0–9 * - . _` stay as they are, a space is `+` (or `%20`), every other byte is
/// percent-encoded.
///
/// It shares ``QueryParametersEncoder``'s strategies: keys sorted at every level, nested objects as
/// `key[sub]`, arrays by ``EncodingStrategy/Arrays``, booleans, dates and keys by their strategies, `nil`
/// dropped. Parameters that encode nothing leave the request unchanged. A `GET` or `HEAD` request cannot
/// carry a body, so any parameters there are a typed error; use ``QueryParametersEncoder`` for those.
public struct FormParametersEncoder: ParametersEncoding {
    /// How keys are converted.
    public var keyEncoding: EncodingStrategy.Keys
    /// How the tree is written.
    public var format: QueryString
    /// The `Content-Type` set when the request has none.
    public var contentType: String

    /// Creates an encoder.
    public init(
        spaceEncoding: QueryString.SpaceEncoding = .plus,
        arrayEncoding: EncodingStrategy.Arrays = .brackets,
        boolEncoding: EncodingStrategy.Bools = .literal,
        dateEncoding: EncodingStrategy.Dates = .iso8601,
        keyEncoding: EncodingStrategy.Keys = .useDefaultKeys,
        contentType: String = "application/x-www-form-urlencoded; charset=utf-8"
    ) {
        self.keyEncoding = keyEncoding
        self.contentType = contentType
        self.format = QueryString(
            arrayEncoding: arrayEncoding,
            boolEncoding: boolEncoding,
            dateEncoding: dateEncoding,
            escaping: .formURLEncoded(spaces: spaceEncoding)
        )
    }

    /// The form body of `parameters`, or `nil` when they encode nothing.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``.
    public func body(for parameters: any Encodable) throws -> Data? {
        let tree: ParameterValue?
        do {
            tree = try ParameterTreeEncoder(keyEncoding: keyEncoding).encode(parameters)
        } catch {
            throw ApiError.encoding(error)
        }
        guard let tree else { return nil }
        let bytes = try format.encodedBytes(tree)
        return bytes.isEmpty ? nil : Data(bytes)
    }

    /// Returns `request` with the form body and `Content-Type`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``, also
    ///   for non-empty parameters on `GET` or `HEAD`.
    public func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        guard let body = try body(for: parameters) else { return request }
        let method = request.method
        guard method != .get, method != .head else {
            throw ApiError.invalidRequest(
                .encoding("a \(method) request cannot carry a form body; use QueryParametersEncoder")
            )
        }
        var request = request
        if !request.headers.contains("Content-Type") {
            request.headers.set(contentType, for: "Content-Type")
        }
        request.body = .data(body)
        return request
    }
}

extension ParametersEncoding where Self == FormParametersEncoder {
    /// An `application/x-www-form-urlencoded` body with default strategies (space as `+`).
    public static var form: FormParametersEncoder { FormParametersEncoder() }
}
