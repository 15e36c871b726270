public import Foundation

/// The parameters of a method as a tree, produced by encoding the method with ``ParameterTreeEncoder``.
///
/// Every CoreAPI parameters encoder (JSON, query, form and multipart) serializes this tree, so key and
/// date strategies behave the same in all of them. Keys keep the order in which they were encoded
/// (serializers sort them). Absent optionals leave no trace; an explicitly encoded `nil` is ``null``,
/// which JSON writes and the other encoders drop.
public enum ParameterValue: Sendable, Equatable {
    /// An explicitly encoded `nil`.
    case null
    /// A text value.
    case string(String)
    /// A number, already as text (`42`, `1.5`).
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// A date, formatted by the serializer's date strategy.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// A file part for ``MultipartFormDataEncoder``.
    // The one payload larger than a string: boxed, so every other value is stored inline.
    indirect case attachment(Attachment)
    /// An ordered list.
    case array([ParameterValue])
    /// Keyed values in encoding order.
    case object([(key: String, value: ParameterValue)])

    /// Whether the value is a scalar (not an array or object).
    public var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// Equality of trees; objects compare keys and values in order.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.attachment(let a), .attachment(let b)): a == b
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// Encodes an `Encodable` value into a ``ParameterValue`` tree.
///
/// Keys are converted with a ``KeyEncodingStrategy``; `Date`, `Data`, `URL`, `Decimal` and ``Attachment``
/// are kept as leaves; non-finite floating-point values are rejected. Dates inside a value that conforms
/// to ``CustomDateEncoding`` are formatted at once with that type's strategy (as numbers for
/// ``DateEncodingStrategy/secondsSince1970`` and ``DateEncodingStrategy/millisecondsSince1970``, as text
/// otherwise), so the serializer's own date strategy does not apply to them.
public struct ParameterTreeEncoder: Sendable {
    /// How keys are converted.
    public var keyEncoding: KeyEncodingStrategy

    /// Creates an encoder.
    public init(keyEncoding: KeyEncodingStrategy = .useDefaultKeys) {
        self.keyEncoding = keyEncoding
    }

    /// The tree of `value`, or `nil` when it encodes nothing (or only `nil`).
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or whatever `value` throws.
    public func encode(_ value: any Encodable) throws -> ParameterValue? {
        let encoder = TreeEncoder(codingPath: [], keyEncoding: keyEncoding, dateOverride: nil)
        try encoder.encodeValue(value)
        let tree = encoder.storage.resolved
        return tree == .null ? nil : tree
    }
}

/// What the tree encoder needs to know about a type that is none of the common leaf types. Finding it
/// takes dynamic casts that cost about a thousand instructions each, so it is found once per type.
struct TypeFacts {
    /// Whether the type is an integer type.
    var isInteger: Bool
    /// The type as a ``CustomDateEncoding`` type, when it is one.
    var customDates: (any CustomDateEncoding.Type)?

    /// Facts found so far, by type; emptied should it ever hold more than 1024.
    private static let known = LockedValue<[ObjectIdentifier: TypeFacts]>([:])

    /// The facts of `type`.
    static func of<Value>(_ type: Value.Type) -> TypeFacts {
        let key = ObjectIdentifier(type)
        if let facts = known.withLock({ $0[key] }) {
            return facts
        }
        let facts = TypeFacts(
            isInteger: type is any BinaryInteger.Type,
            customDates: type as? any CustomDateEncoding.Type
        )
        known.withLock { table in
            if table.count >= 1024 { table.removeAll() }
            table[key] = facts
        }
        return facts
    }
}

final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let keyEncoding: KeyEncodingStrategy
    /// The date strategy of the closest enclosing ``CustomDateEncoding`` value.
    var dateOverride: DateEncodingStrategy?
    let storage: TreeNode
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(
        codingPath: [any CodingKey],
        keyEncoding: KeyEncodingStrategy,
        dateOverride: DateEncodingStrategy?,
        storage: TreeNode = TreeNode()
    ) {
        self.codingPath = codingPath
        self.keyEncoding = keyEncoding
        self.dateOverride = dateOverride
        self.storage = storage
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = storage.content {} else { storage.content = .object([]) }
        return KeyedEncodingContainer(TreeKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage.content {} else { storage.content = .array([]) }
        return TreeUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueContainer(encoder: self)
    }

    /// Encodes `value` into `storage`, keeping Foundation leaf types as leaves.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        if let leaf = try commonLeaf(for: value) {
            storage.content = .leaf(leaf)
            return
        }
        // One table lookup per value of another type: whether it is an integer, or sets a date strategy.
        let facts = TypeFacts.of(Value.self)
        if facts.isInteger {
            storage.content = .leaf(.number(String(describing: value)))
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

struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func key(_ key: Key) -> String {
        encoder.keyEncoding.convert(key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.storage.set(.leaf(.null), forKey: self.key(key))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // A leaf needs no encoder or node of its own; a failing one (a non-finite number) takes the long way,
        // so its error names the full coding path.
        if let leaf = try? encoder.commonLeaf(for: value) {
            encoder.storage.set(.leaf(leaf), forKey: self.key(key))
            return
        }
        let child = encoder.child(for: key)
        try child.encodeValue(value)
        encoder.storage.set(.node(child.storage), forKey: self.key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(for: key)
        encoder.storage.set(.node(child.storage), forKey: self.key(key))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(for: key)
        encoder.storage.set(.node(child.storage), forKey: self.key(key))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(for: nil)
        encoder.storage.set(.node(child.storage), forKey: "super")
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = encoder.child(for: key)
        encoder.storage.set(.node(child.storage), forKey: self.key(key))
        return child
    }
}

struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.storage.childCount }

    private var nextKey: IndexKey { IndexKey(intValue: count) }

    mutating func encodeNil() throws {
        encoder.storage.append(.leaf(.null))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // As in the keyed container: a leaf needs no encoder or node of its own.
        if let leaf = try? encoder.commonLeaf(for: value) {
            encoder.storage.append(.leaf(leaf))
            return
        }
        let child = encoder.child(for: nextKey)
        try child.encodeValue(value)
        encoder.storage.append(.node(child.storage))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(for: nextKey)
        encoder.storage.append(.node(child.storage))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(for: nextKey)
        encoder.storage.append(.node(child.storage))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(for: nextKey)
        encoder.storage.append(.node(child.storage))
        return child
    }
}

struct TreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.storage.content = .leaf(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value)
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(intValue: Int) {
        self.intValue = intValue
        self.stringValue = String(intValue)
    }

    init?(stringValue: String) {
        return nil
    }
}
