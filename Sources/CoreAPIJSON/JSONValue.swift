import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Any JSON value: an object, an array, a string, a number, a Boolean or `null`.
///
/// For a reply whose shape is not fixed, or for the part of one that is not: it decodes from and
/// encodes to any JSON, reads by subscript, and is `Sendable`. Whole numbers stay exact (`.integer`);
/// numbers with a fraction, or too large for `Int`, are `.double`.
///
/// ```swift
/// struct GetConfig: ApiMethod {
///     typealias Response = JSONValue
///     var hostProviderKey: String { "api" }
///     var path: String { "/config" }
/// }
///
/// let config = try await session.perform(GetConfig())
/// let limit = config["limits"]?["daily"]?.intValue
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in `Int`, however it is written (`12`, `1.2e1`).
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, or `nil` for any other value.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The integer; a `.double` with no fraction that fits in `Int` too; `nil` otherwise.
    public var intValue: Int? {
        switch self {
        case .integer(let value): value
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`, or `nil` for any other value.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The Boolean, or `nil` for any other value.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The elements of an array, or `nil` for any other value.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The members of an object, or `nil` for any other value.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    /// - Throws: `DecodingError.dataCorrupted` for a value that is none of the JSON kinds.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd {
                elements.append(try array.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements {
                try array.encode(element)
            }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in members {
                try object.encode(value, forKey: AnyKey(key))
            }
        }
    }
}

extension JSONValue: JSONApiResponse {}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) {
        self = .null
    }

    /// A Boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// An integer.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }

    /// A number with a fraction.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }

    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// An array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// An object; a repeated key keeps its last value.
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }
}
