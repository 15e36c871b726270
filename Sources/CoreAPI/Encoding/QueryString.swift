public import Foundation

/// Serializes encoded parameters and query items as query strings or form bodies.
///
/// With ``Escaping-swift.enum/rfc3986`` only unreserved characters (`A–Z a–z 0–9 - . _ ~`) are left as
/// they are; everything else, including `+`, `&`, `=`, `#`, `?`, `/`, `%`, brackets, space and every
/// non-ASCII byte, is percent-encoded. With ``Escaping-swift.enum/formURLEncoded(spaces:)`` the WHATWG
/// `application/x-www-form-urlencoded` rules apply: `A–Z a–z 0–9 * - . _` stay, a space is `+` or `%20`,
/// everything else (`~` included) is percent-encoded. Keys are sorted at every level, so equal input
/// gives equal bytes.
public struct QueryString: Sendable {
    /// How keys and values are escaped.
    public enum Escaping: Sendable, Hashable {
        /// RFC 3986: everything but unreserved characters is percent-encoded.
        case rfc3986
        /// The WHATWG `application/x-www-form-urlencoded` serializer.
        case formURLEncoded(spaces: SpaceEncoding)
    }

    /// How a form body writes a space.
    public enum SpaceEncoding: Sendable, Hashable {
        /// `+`, as browsers do.
        case plus
        /// `%20`.
        case percent20
    }

    /// How arrays are written.
    public var arrayEncoding: EncodingStrategy.Arrays
    /// How booleans are written.
    public var boolEncoding: EncodingStrategy.Bools
    /// How dates are written.
    public var dateEncoding: EncodingStrategy.Dates
    /// How keys and values are escaped.
    public var escaping: Escaping

    /// Creates a serializer.
    public init(
        arrayEncoding: EncodingStrategy.Arrays = .brackets,
        boolEncoding: EncodingStrategy.Bools = .literal,
        dateEncoding: EncodingStrategy.Dates = .iso8601,
        escaping: Escaping = .rfc3986
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
        self.escaping = escaping
    }

    /// One `key=value` pair before escaping; a comma-separated array has several parts, joined with
    /// an unescaped `,` after each part is escaped.
    struct Pair: Sendable, Hashable {
        /// The key, with `[sub]` suffixes for nesting.
        var key: String
        /// The value parts (one, except for comma-separated arrays).
        var parts: [String]
    }

    /// The unescaped pairs of a top-level object, keys sorted at every level.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)``
    ///   when the top level is not an object, a comma-separated array holds arrays or objects, or the
    ///   tree holds an ``Attachment`` (only ``MultipartFormDataEncoder`` can send files).
    func pairs(for value: ParameterValue) throws -> [Pair] {
        try fields(for: value).map { field in
            Pair(key: field.key, parts: try field.values.map { try leafText($0, key: field.key) })
        }
    }

    /// `value` as a query string or form body (without `?`), escaped by ``escaping``.
    func encode(_ value: ParameterValue) throws -> String {
        String(decoding: try encodedBytes(value), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``encode(_:)``, written into one buffer.
    func encodedBytes(_ value: ParameterValue) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        for (index, field) in try fields(for: value).enumerated() {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            appendEscaped(field.key, to: &output)
            output.append(UInt8(ascii: "="))
            for (partIndex, leaf) in field.values.enumerated() {
                if partIndex > 0 { output.append(UInt8(ascii: ",")) }
                appendEscaped(try leafText(leaf, key: field.key), to: &output)
            }
        }
        return output
    }

    /// The text of the leaf `value` of the field `key`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` for an ``Attachment``.
    private func leafText(_ value: ParameterValue, key: String) throws -> String {
        guard case .attachment = value else { return text(for: value) }
        throw ApiError.invalidRequest(.encoding("\(key): attachments can only be sent with MultipartFormDataEncoder"))
    }

    /// One flattened field: its key and its leaves (one, except for comma-separated arrays).
    struct Field {
        var key: String
        var values: Leaves
    }

    /// The leaves of a field; the usual single leaf is kept without an array of its own.
    struct Leaves: RandomAccessCollection {
        private let single: ParameterValue?
        private let several: [ParameterValue]

        /// One leaf.
        init(_ value: ParameterValue) {
            single = value
            several = []
        }

        /// The leaves of a comma-separated array.
        init(_ values: [ParameterValue]) {
            single = nil
            several = values
        }

        var startIndex: Int { 0 }
        var endIndex: Int { single == nil ? several.count : 1 }
        subscript(position: Int) -> ParameterValue { single ?? several[position] }
    }

    /// The flattened leaves of a top-level object, `null` dropped; keys sorted at every level, or in
    /// encoding order when `sortsKeys` is false.
    func fields(for value: ParameterValue, sortsKeys: Bool = true) throws -> [Field] {
        guard case .object(let entries) = value else {
            throw ApiError.invalidRequest(.encoding("query and form parameters must be keyed, not \(value.kindName)"))
        }
        var result: [Field] = []
        for (key, value) in sortsKeys ? ParameterValue.sortedByKey(entries) : entries {
            try append(value, key: key, sortsKeys: sortsKeys, to: &result)
        }
        return result
    }

    /// `text` escaped by ``escaping``.
    public func escape(_ text: String) -> String {
        var output: [UInt8] = []
        appendEscaped(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` escaped by ``escaping`` to `output`.
    private func appendEscaped(_ text: String, to output: inout [UInt8]) {
        switch escaping {
        case .rfc3986:
            PercentEncoding.append(text, to: &output, allowing: PercentEncoding.isUnreserved)
        case .formURLEncoded(let spaces):
            PercentEncoding.append(
                text,
                to: &output,
                allowing: PercentEncoding.isFormUnescaped,
                spaceAsPlus: spaces == .plus
            )
        }
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

    /// The text of a scalar.
    func text(for scalar: ParameterValue) -> String {
        switch scalar {
        case .string(let text), .number(let text): text
        case .bool(let value): boolEncoding == .literal ? (value ? "true" : "false") : (value ? "1" : "0")
        case .date(let date): dateEncoding.format(date)
        case .data(let data): data.base64EncodedString()
        case .null, .attachment, .array, .object: ""
        }
    }

    private func append(_ value: ParameterValue, key: String, sortsKeys: Bool, to result: inout [Field]) throws {
        switch value {
        case .null:
            return
        case .object(let entries):
            for (subkey, subvalue) in sortsKeys ? ParameterValue.sortedByKey(entries) : entries {
                try append(subvalue, key: "\(key)[\(subkey)]", sortsKeys: sortsKeys, to: &result)
            }
        case .array(let items):
            let items = items.contains(.null) ? items.filter { $0 != .null } : items
            switch arrayEncoding {
            case .commaSeparated:
                guard items.allSatisfy(\.isScalar) else {
                    throw ApiError.invalidRequest(.encoding("\(key): comma-separated arrays must hold only scalars"))
                }
                if !items.isEmpty {
                    result.append(Field(key: key, values: Leaves(items)))
                }
            case .brackets, .repeatedKey, .indexed:
                for (index, item) in items.enumerated() {
                    let itemKey =
                        switch arrayEncoding {
                        case .brackets: "\(key)[]"
                        case .indexed: "\(key)[\(index)]"
                        default: key
                        }
                    try append(item, key: itemKey, sortsKeys: sortsKeys, to: &result)
                }
            }
        default:
            result.append(Field(key: key, values: Leaves(value)))
        }
    }
}

extension ParameterValue {
    var kindName: String {
        switch self {
        case .null: "null"
        case .attachment: "an attachment"
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
