public import Foundation

/// Serializes ``ParameterValue`` trees and query items as RFC 3986 query strings.
///
/// Only unreserved characters (`A–Z a–z 0–9 - . _ ~`) are left as they are; everything else,
/// including `+`, `&`, `=`, `#`, `?`, `/`, `%`, brackets, space and every non-ASCII byte, is
/// percent-encoded. Keys are sorted at every level, so equal input gives equal bytes.
public struct QueryString: Sendable {
    /// How arrays are written.
    public var arrayEncoding: ArrayEncodingStrategy
    /// How booleans are written.
    public var boolEncoding: BoolEncodingStrategy
    /// How dates are written.
    public var dateEncoding: DateEncodingStrategy

    /// Creates a serializer.
    public init(
        arrayEncoding: ArrayEncodingStrategy = .brackets,
        boolEncoding: BoolEncodingStrategy = .literal,
        dateEncoding: DateEncodingStrategy = .iso8601
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
    }

    /// One `key=value` pair before escaping; a comma-separated array has several parts, joined with
    /// an unescaped `,` after each part is escaped.
    public struct Pair: Sendable, Hashable {
        /// The key, with `[sub]` suffixes for nesting.
        public var key: String
        /// The value parts (one, except for comma-separated arrays).
        public var parts: [String]
    }

    /// The unescaped pairs of a top-level object, keys sorted at every level.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``
    ///   when the top level is not an object, or a comma-separated array holds arrays or objects.
    public func pairs(for value: ParameterValue) throws -> [Pair] {
        guard case .object(let entries) = value else {
            throw ApiError.invalidRequest(.encoding("query and form parameters must be keyed, not \(value.kindName)"))
        }
        var result: [Pair] = []
        for (key, value) in Self.sorted(entries) {
            try append(value, key: key, to: &result)
        }
        return result
    }

    /// `value` as a percent-encoded query string (without `?`).
    public func encode(_ value: ParameterValue) throws -> String {
        try pairs(for: value).map { pair in
            Self.escape(pair.key) + "=" + pair.parts.map(Self.escape).joined(separator: ",")
        }.joined(separator: "&")
    }

    /// Query items as a percent-encoded query string, in their order; an item without value is `name`.
    public static func encode(_ items: [URLQueryItem]) -> String {
        items.map { item in
            item.value.map { escape(item.name) + "=" + escape($0) } ?? escape(item.name)
        }.joined(separator: "&")
    }

    /// `text` with every byte but RFC 3986 unreserved ones percent-encoded.
    public static func escape(_ text: String) -> String {
        PercentEncoding.encode(text, allowing: PercentEncoding.isUnreserved)
    }

    private static func sorted(
        _ entries: [(key: String, value: ParameterValue)]
    ) -> [(key: String, value: ParameterValue)] {
        entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The text of a scalar.
    public func text(for scalar: ParameterValue) -> String {
        switch scalar {
        case .string(let text), .number(let text): text
        case .bool(let value): boolEncoding == .literal ? (value ? "true" : "false") : (value ? "1" : "0")
        case .date(let date): dateEncoding.format(date)
        case .data(let data): data.base64EncodedString()
        case .array, .object: ""
        }
    }

    private func append(_ value: ParameterValue, key: String, to result: inout [Pair]) throws {
        switch value {
        case .object(let entries):
            for (subkey, subvalue) in Self.sorted(entries) {
                try append(subvalue, key: "\(key)[\(subkey)]", to: &result)
            }
        case .array(let items):
            switch arrayEncoding {
            case .commaSeparated:
                guard items.allSatisfy(\.isScalar) else {
                    throw ApiError.invalidRequest(.encoding("\(key): comma-separated arrays must hold only scalars"))
                }
                if !items.isEmpty {
                    result.append(Pair(key: key, parts: items.map(text(for:))))
                }
            case .brackets, .repeatedKey, .indexed:
                for (index, item) in items.enumerated() {
                    let itemKey =
                        switch arrayEncoding {
                        case .brackets: "\(key)[]"
                        case .indexed: "\(key)[\(index)]"
                        default: key
                        }
                    try append(item, key: itemKey, to: &result)
                }
            }
        default:
            result.append(Pair(key: key, parts: [text(for: value)]))
        }
    }
}

extension ParameterValue {
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
