/// An ordered, case-insensitive, multi-value collection of HTTP header fields.
///
/// Field order is kept as added. Lookups ignore ASCII case. A name may carry several values; the
/// subscript reads them joined with `", "` and writing through it replaces them all.
///
/// ```swift
/// var headers = Headers(["Authorization": "Bearer abc"])
/// headers.add("gzip", for: "Accept-Encoding")
/// headers["accept-encoding"]  // "gzip"
/// ```
///
/// Names and values are validated with ``validate()`` before any request is sent: a name must be an
/// RFC 9110 token and a value must not contain CR, LF, NUL or other control characters except tab.
///
/// Equality compares fields in order, names and values exactly.
public struct Headers: Hashable, Sendable {
    /// One header field: a name and a value.
    public struct Field: Hashable, Sendable {
        /// The field name as given; lookups in ``Headers`` ignore its ASCII case.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates an empty collection.
    public init() {
        fields = []
    }

    /// Creates headers from a dictionary; the fields are ordered by name so the result is deterministic.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates headers from fields, keeping their order and repeated names.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The number of fields, counting each value of a repeated name.
    public var count: Int { fields.count }

    /// The values of every field called `name`, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            values.append(field.value)
        }
        return values
    }

    /// Whether a field called `name` exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// The values of `name` joined with `", "`, or `nil` when absent. Setting replaces every value;
    /// setting `nil` removes the field.
    public subscript(name: String) -> String? {
        get {
            // One pass, and no array for the usual none or one field.
            var joined: String?
            // By index: the loop reads each name in place instead of copying every field.
            for index in fields.indices where fields[index].name.equalsIgnoringASCIICase(name) {
                Self.join(fields[index].value, to: &joined)
            }
            return joined
        }
        set {
            if let newValue {
                set(newValue, for: name)
            } else {
                remove(name)
            }
        }
    }

    /// The values of three names, each joined with `", "` as the subscript joins them (`nil` for an absent
    /// one), in one pass over the fields: what reading a head's few checked fields costs once.
    func values(
        of names: (String, String, String)
    ) -> (String?, String?, String?) {
        var found: (String?, String?, String?) = (nil, nil, nil)
        for index in fields.indices {
            let name = fields[index].name
            if name.equalsIgnoringASCIICase(names.0) {
                Self.join(fields[index].value, to: &found.0)
            } else if name.equalsIgnoringASCIICase(names.1) {
                Self.join(fields[index].value, to: &found.1)
            } else if name.equalsIgnoringASCIICase(names.2) {
                Self.join(fields[index].value, to: &found.2)
            }
        }
        return found
    }

    /// Adds `value` to the values of one name read so far, joined with `", "` as repeated fields read.
    package static func join(_ value: String, to joined: inout String?) {
        joined = joined.map { $0 + ", " + value } ?? value
    }

    /// Appends a value for `name`, keeping any existing values.
    public mutating func add(_ value: String, for name: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every value of `name` with `value`, keeping the position of the first one.
    public mutating func set(_ value: String, for name: String) {
        guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[first] = Field(name: name, value: value)
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if fields[index].name.equalsIgnoringASCIICase(name) {
                fields.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Merges `other` into these headers: for every name in `other`, its values replace the ones here.
    public mutating func merge(_ other: Headers) {
        guard !other.isEmpty else { return }
        guard !isEmpty else {
            self = other
            return
        }
        // Names compare by ASCII case only, as `remove` does: Unicode lower-casing would treat the
        // Kelvin sign as "k" and leave an old "k" value in place.
        var replaced: [String] = []
        for field in other.fields {
            if !replaced.contains(where: { $0.equalsIgnoringASCIICase(field.name) }) {
                replaced.append(field.name)
                remove(field.name)
            }
            fields.append(field)
        }
    }

    /// These headers merged with `other`, where the later value of a name wins.
    public func merging(_ other: Headers) -> Headers {
        var result = self
        result.merge(other)
        return result
    }

    /// Checks every name and value.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/invalidHeader(name:)``
    ///   for the first field whose name is not an RFC 9110 token or whose value contains CR, LF, NUL or
    ///   another control character except horizontal tab. The value itself is never part of the error.
    public func validate() throws {
        for field in fields {
            guard Self.isValidName(field.name), Self.isValidValue(field.value) else {
                throw ApiError.invalidRequest(.invalidHeader(name: field.name))
            }
        }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(HTTPMethod.isTokenCharacter)
    }

    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }
}

extension Headers: ExpressibleByDictionaryLiteral {
    /// Creates headers from a literal, keeping its order; a repeated name adds a value.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }
}

extension Headers: Sequence {
    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension Headers {
    /// Header names whose values are secrets: they are never printed in descriptions or logs
    /// (``Secrets/builtInHeaderNames``).
    public static var secretNames: Set<String> { Secrets.builtInHeaderNames }

    /// Whether `name` is one of ``secretNames`` (ignoring case).
    public static func isSecret(_ name: String) -> Bool {
        secretNames.contains(name.lowercased())
    }

    /// A rendering safe for logs: the values of secret fields are replaced with `<redacted>`.
    public var redactedDescription: String {
        redactedFields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// The fields with the values of secret ones replaced with `<redacted>`.
    var redactedFields: [Field] {
        fields.map { Self.isSecret($0.name) ? Field(name: $0.name, value: "<redacted>") : $0 }
    }
}

extension Headers: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields as `[name: value, …]`, secret values redacted, so printing or interpolating headers
    /// never reveals a token or cookie.
    public var description: String {
        "[" + redactedFields.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the redacted fields, so `dump` and debuggers do not reveal secrets either.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: redactedFields, displayStyle: .collection)
    }
}

extension String {
    /// Whether the two strings are equal but for the case of ASCII letters, as field names compare.
    /// Compares the UTF-8 bytes in place: looking up a field compares its name with every field's.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        if self == other {
            return true  // the usual spelling: a comparison of the bytes, or of a small string's bits
        }
        let inPlace = lhs.withContiguousStorageIfAvailable { lhs in
            rhs.withContiguousStorageIfAvailable { rhs in
                lhs.indices.allSatisfy { Self.sameIgnoringASCIICase(lhs[$0], rhs[$0]) }
            }
        }
        if let inPlace = inPlace ?? nil {
            return inPlace
        }
        return zip(lhs, rhs).allSatisfy { Self.sameIgnoringASCIICase($0, $1) }
    }

    /// Whether two bytes are equal but for the case of an ASCII letter.
    private static func sameIgnoringASCIICase(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
    }
}
