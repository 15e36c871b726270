/// Encodes an `Encodable` value into a ``ParameterValue`` tree.
///
/// Keys are converted with a ``EncodingStrategy/Keys``; `Date`, `Data`, `URL`, `Decimal` and ``Attachment``
/// are kept as leaves; non-finite floating-point values are rejected. Dates inside a value that conforms
/// to ``EncodingStrategy/CustomDate`` are formatted at once with that type's strategy (as numbers for
/// ``EncodingStrategy/Dates/secondsSince1970`` and ``EncodingStrategy/Dates/millisecondsSince1970``, as text
/// otherwise), so the serializer's own date strategy does not apply to them.
struct ParameterTreeEncoder: Sendable {
    /// How keys are converted.
    var keyEncoding: EncodingStrategy.Keys

    /// Creates an encoder.
    init(keyEncoding: EncodingStrategy.Keys = .useDefaultKeys) {
        self.keyEncoding = keyEncoding
    }

    /// The tree of `value`, or `nil` when it encodes nothing (or only `nil`).
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or whatever `value` throws.
    func encode(_ value: any Encodable) throws -> ParameterValue? {
        let encoder = TreeEncoder(codingPath: [], keyEncoding: keyEncoding, dateOverride: nil)
        try encoder.encodeValue(value)
        let tree = encoder.resolved
        return tree == .null ? nil : tree
    }
}
