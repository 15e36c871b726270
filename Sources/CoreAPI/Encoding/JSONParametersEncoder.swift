public import Foundation

/// Encodes parameters as a JSON body with `Content-Type: application/json` (unless already set).
///
/// The method is encoded into the same tree of values as every other CoreAPI encoder uses, so
/// key and date strategies (including ``EncodingStrategy/CustomDate``) behave alike, then written as compact JSON:
/// keys sorted by their UTF-8 bytes, so equal input gives equal bytes; `/` and non-ASCII text unescaped;
/// `Data` as Base64; absent optionals left out and explicit `nil` as `null`. A `GET` or `HEAD` request cannot carry a body:
/// parameters that encode to an empty object are left out, and any other parameters are a typed error.
public struct JSONParametersEncoder: ParametersEncoding {
    /// How dates are written.
    public var dateEncoding: EncodingStrategy.Dates
    /// How keys are converted.
    public var keyEncoding: EncodingStrategy.Keys
    /// The `Content-Type` set when the request has none.
    public var contentType: String

    /// Creates an encoder.
    public init(
        dateEncoding: EncodingStrategy.Dates = .iso8601,
        keyEncoding: EncodingStrategy.Keys = .useDefaultKeys,
        contentType: String = "application/json"
    ) {
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.contentType = contentType
    }

    /// The JSON bytes of `parameters`, or `nil` when they encode nothing.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``.
    public func body(for parameters: any Encodable) throws -> Data? {
        let tree: ParameterValue?
        do {
            tree = try ParameterTreeEncoder(keyEncoding: keyEncoding).encode(parameters)
        } catch {
            throw ApiError.encoding(error)
        }
        guard let tree else { return nil }
        var writer = JSONWriter(dateEncoding: dateEncoding)
        try writer.write(tree)
        return Data(writer.bytes)
    }

    /// Returns `request` with the JSON body and `Content-Type`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``, also
    ///   for non-empty parameters on `GET` or `HEAD`.
    public func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        guard let body = try body(for: parameters) else { return request }
        let method = request.method
        if method == .get || method == .head {
            guard body == Data("{}".utf8) else {
                throw ApiError.invalidRequest(
                    .encoding("a \(method) request cannot carry a JSON body; use QueryParametersEncoder")
                )
            }
            return request
        }
        var request = request
        if !request.headers.contains("Content-Type") {
            request.headers.set(contentType, for: "Content-Type")
        }
        request.body = .data(body)
        return request
    }
}

extension ParametersEncoding where Self == JSONParametersEncoder {
    /// A JSON body with default strategies.
    public static var json: JSONParametersEncoder { JSONParametersEncoder() }
}
