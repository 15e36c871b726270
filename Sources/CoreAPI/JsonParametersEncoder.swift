public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Encodes parameters as a JSON body with `Content-Type: application/json` (unless already set).
///
/// Keys are sorted, so equal input gives equal bytes. A `GET` or `HEAD` request cannot carry a body:
/// parameters that encode to an empty object are left out, and any other parameters are a typed error.
public struct JsonParametersEncoder: ParametersEncoding {
    /// How dates are written.
    public var dateEncoding: DateEncodingStrategy
    /// How keys are converted.
    public var keyEncoding: KeyEncodingStrategy
    /// The `Content-Type` set when the request has none.
    public var contentType: String

    /// Creates an encoder.
    public init(
        dateEncoding: DateEncodingStrategy = .iso8601,
        keyEncoding: KeyEncodingStrategy = .useDefaultKeys,
        contentType: String = "application/json"
    ) {
        self.dateEncoding = dateEncoding
        self.keyEncoding = keyEncoding
        self.contentType = contentType
    }

    /// The JSON bytes of `parameters`, or `nil` when they encode nothing.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``.
    public func body(for parameters: any Encodable) throws -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dates = dateEncoding
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            switch dates {
            case .secondsSince1970: try container.encode(date.timeIntervalSince1970)
            case .millisecondsSince1970: try container.encode(DateEncodingStrategy.milliseconds(date))
            default: try container.encode(dates.format(date))
            }
        }
        switch keyEncoding {
        case .useDefaultKeys: break
        case .convertToSnakeCase, .convertToKebabCase, .custom:
            let keys = keyEncoding
            encoder.keyEncodingStrategy = .custom { path in
                AnyCodingKey(keys.convert(path.last?.stringValue ?? ""))
            }
        }
        do {
            return try encoder.encode(parameters)
        } catch {
            // A value that encodes nothing at all has no parameters rather than a broken body.
            if Self.encodesNothing(parameters) {
                return nil
            }
            throw ApiError.encoding(error)
        }
    }

    /// Whether `parameters` encode no value at all (as opposed to failing to encode).
    private static func encodesNothing(_ parameters: any Encodable) -> Bool {
        do {
            return try ParameterTreeEncoder().encode(parameters) == nil
        } catch {
            return false
        }
    }

    /// Returns `request` with the JSON body and `Content-Type`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``, also
    ///   for non-empty parameters on `GET` or `HEAD`.
    public func encode(_ parameters: any Encodable, in request: URLRequest) throws -> URLRequest {
        guard let body = try body(for: parameters) else { return request }
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        if method == .get || method == .head {
            guard body == Data("{}".utf8) else {
                throw ApiError.invalidRequest(
                    .encoding("a \(method) request cannot carry a JSON body; use QueryParametersEncoder")
                )
            }
            return request
        }
        var request = request
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        request.httpBody = body
        return request
    }
}

struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
