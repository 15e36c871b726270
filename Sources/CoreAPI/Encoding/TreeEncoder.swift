import Foundation

/// The `Encoder` behind ``ParameterTreeEncoder``: encodes one value into its ``content``, a node of the
/// tree (see `TreeEncoder+Node.swift`).
final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let keyEncoding: EncodingStrategy.Keys
    /// The date strategy of the closest enclosing ``EncodingStrategy/CustomDate`` value.
    var dateOverride: EncodingStrategy.Dates?
    /// What was encoded into this encoder so far.
    var content: Content = .empty
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(
        codingPath: [any CodingKey],
        keyEncoding: EncodingStrategy.Keys,
        dateOverride: EncodingStrategy.Dates?
    ) {
        self.codingPath = codingPath
        self.keyEncoding = keyEncoding
        self.dateOverride = dateOverride
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = content {} else { content = .object([]) }
        return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = content {} else { content = .array([]) }
        return TreeUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self)
    }

    /// Encodes `value` into ``content``, keeping Foundation leaf types as leaves.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        if let leaf = try commonLeaf(for: value) {
            content = .leaf(leaf)
            return
        }
        // One table lookup per value of another type: whether it is an integer, or sets a date strategy.
        let facts = TypeFacts.of(Value.self)
        if facts.isInteger {
            content = .leaf(.number(String(describing: value)))
            return
        }
        if let custom = facts.customDates {
            dateOverride = custom.dateEncoding
        }
        try value.encode(to: self)
    }

    func child(for key: (any CodingKey)?) -> TreeEncoder {
        TreeEncoder(
            codingPath: key.map { codingPath + [$0] } ?? codingPath,
            keyEncoding: keyEncoding,
            dateOverride: dateOverride
        )
    }

    /// The leaf `value` is when it has one of the common leaf types, recognized by comparing types,
    /// which costs next to nothing; other integer types are found through ``TypeFacts`` by the caller.
    func commonLeaf<Value: Encodable>(for value: Value) throws -> ParameterValue? {
        let type = Value.self
        if type == String.self { return .string(value as! String) }
        if type == Bool.self { return .bool(value as! Bool) }
        if type == Int.self { return .number(String(value as! Int)) }
        if type == Double.self { return .number(try finite(value as! Double)) }
        if type == Date.self { return dateOverride?.leaf(for: value as! Date) ?? .date(value as! Date) }
        if type == Data.self { return .data(value as! Data) }
        if type == Attachment.self { return .attachment(value as! Attachment) }
        if type == URL.self { return .string((value as! URL).absoluteString) }
        if type == Decimal.self { return .number((value as! Decimal).description) }
        if type == Float.self { return .number(try finite(value as! Float)) }
        return nil
    }

    private func finite<Value: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Value
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a finite number")
            )
        }
        return NumberText.format(value)
    }
}
