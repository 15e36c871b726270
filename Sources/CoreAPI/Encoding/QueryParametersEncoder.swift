import Foundation

/// Encodes parameters as an RFC 3986 query string: in the URL for `GET`, `HEAD` and `DELETE`, and as an
/// `application/x-www-form-urlencoded` body for other methods (the destination can be fixed instead).
///
/// Keys are sorted at every level; nested objects become `key[sub]`; arrays follow
/// ``EncodingStrategy/Arrays``; `nil` values are dropped; every byte but the unreserved ones is
/// percent-encoded (see ``QueryString``). Parameters already in the URL are kept, new ones follow.
/// Parameters that encode nothing leave the request unchanged: no query, no body.
public struct QueryParametersEncoder: ParametersEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable, Hashable {
        /// The URL query for `GET`, `HEAD` and `DELETE`; the body for other methods.
        case methodDependent
        /// Always the URL query.
        case queryString
        /// Always the body.
        case httpBody
    }

    /// Where the encoded parameters go.
    public var destination: Destination
    /// How keys are converted.
    public var keyEncoding: EncodingStrategy.Keys
    /// How the tree is written.
    public var format: QueryString

    /// Creates an encoder.
    public init(
        destination: Destination = .methodDependent,
        arrayEncoding: EncodingStrategy.Arrays = .brackets,
        boolEncoding: EncodingStrategy.Bools = .literal,
        dateEncoding: EncodingStrategy.Dates = .iso8601,
        keyEncoding: EncodingStrategy.Keys = .useDefaultKeys
    ) {
        self.destination = destination
        self.keyEncoding = keyEncoding
        self.format = QueryString(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, dateEncoding: dateEncoding)
    }

    /// The parameters as a percent-encoded query string (without `?`), or an empty string.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``.
    public func queryString(for parameters: any Encodable) throws -> String {
        let tree: ParameterValue?
        do {
            tree = try ParameterTreeEncoder(keyEncoding: keyEncoding).encode(parameters)
        } catch {
            throw ApiError.encoding(error)
        }
        guard let tree else { return "" }
        return try format.encode(tree)
    }

    /// Returns `request` with the parameters in its query or body.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``.
    public func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        let query = try queryString(for: parameters)
        if query.isEmpty {
            return request  // nothing to add, in the URL or as a body
        }
        var request = request
        let method = request.method
        let inQuery =
            switch destination {
            case .methodDependent: method.prefersQueryParameters
            case .queryString: true
            case .httpBody: false
            }
        if inQuery {
            guard let newURL = Self.url(request.url, appendingQuery: query) else {
                throw ApiError.invalidRequest(.invalidURL("the query could not be added to the URL"))
            }
            request.url = newURL
        } else {
            if !request.headers.contains("Content-Type") {
                request.headers.set("application/x-www-form-urlencoded; charset=utf-8", for: "Content-Type")
            }
            request.body = .data(Data(query.utf8))
        }
        return request
    }
}

extension QueryParametersEncoder {
    /// `url` with `query`, already percent-encoded, after the parameters it has (joined with `&`), or as
    /// its query; `nil` when the result is not a URL.
    ///
    /// The query is written into the URL's text, which is read once more: going through
    /// `URLComponents` reads the URL twice and builds its text again, the costlier way on Linux. A URL
    /// with a fragment, where the query must go before it, takes that way.
    static func url(_ url: URL, appendingQuery query: String) -> URL? {
        let text = url.absoluteString
        let bytes = text.utf8
        guard !bytes.contains(UInt8(ascii: "#")) else {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + query
            return components.url
        }
        // Without a fragment, the first `?` starts the query; one that ends the text starts an empty one.
        let separator = !bytes.contains(UInt8(ascii: "?")) ? "?" : bytes.last == UInt8(ascii: "?") ? "" : "&"
        return URL(string: text + separator + query)
    }
}

extension ParametersEncoding where Self == QueryParametersEncoder {
    /// The query for `GET`, `HEAD` and `DELETE`, a form body otherwise, with default strategies.
    public static var query: QueryParametersEncoder { QueryParametersEncoder() }
}
