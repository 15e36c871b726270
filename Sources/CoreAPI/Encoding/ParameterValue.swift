import Foundation

/// The parameters of a method as a tree, produced by encoding the method with ``ParameterTreeEncoder``.
///
/// Every CoreAPI parameters encoder (JSON, query, form and multipart) serializes this tree, so key and
/// date strategies behave the same in all of them. Keys keep the order in which they were encoded
/// (serializers sort them). Absent optionals leave no trace; an explicitly encoded `nil` is ``null``,
/// which JSON writes and the other encoders drop.
enum ParameterValue: Sendable, Equatable {
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
    var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// Equality of trees; objects compare keys and values in order.
    static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
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
