/// Where a model sits inside the JSON body of its reply.
///
/// Many APIs wrap every reply: `{"data": {...}}` or `{"result": {"items": [...]}}`. A model names its
/// envelope once with ``JSONApiResponse/envelope`` and decodes as if the wrapper were not there:
///
/// ```swift
/// struct Items: JSONApiResponse {
///     static var envelope: JSONEnvelope { "result.items" }
///     let names: [String]
/// }
/// ```
///
/// Keys are written as the decoder sees them, after its key strategy: with `.convertFromSnakeCase`, a
/// body key `page_data` is `pageData` here, as it would be for a property. A missing key, a value on the
/// way that is not an object, or an ambiguous single key is a mapping error whose cause is a
/// ``JSONEnvelope/Failure`` naming the path.
public struct JSONEnvelope: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// How the envelope is found.
    enum Rule: Sendable, Hashable {
        /// No envelope: the body is the model.
        case none
        /// The model is the value of the only key of the top-level object, whatever its name.
        case singleKey
        /// The model is at these keys, outermost first.
        case keys([String])
    }

    let rule: Rule

    private init(_ rule: Rule) {
        self.rule = rule
    }

    /// No envelope: the whole body is the model. The default.
    public static let none = JSONEnvelope(.none)

    /// The model is the value of the one key of the top-level object, whatever that key is called
    /// (`{"user": {...}}`, `{"items": [...]}`); a body with more or fewer keys is an error.
    public static let singleKey = JSONEnvelope(.singleKey)

    /// The model is at `keys`, outermost first: `keyPath("data", "items")`.
    public static func keyPath(_ keys: String...) -> JSONEnvelope {
        JSONEnvelope(keys.isEmpty ? .none : .keys(keys))
    }

    /// The model is at a dotted key path: `"data.items"`. An empty string means no envelope.
    public init(stringLiteral path: String) {
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.init(path.isEmpty ? .none : .keys(keys))
    }

    /// `none`, `single key`, or the dotted key path.
    public var description: String {
        switch rule {
        case .none: "none"
        case .singleKey: "single key"
        case .keys(let keys): keys.joined(separator: ".")
        }
    }
}

extension JSONEnvelope {
    /// Why an envelope could not be opened.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key at the end of `path` is missing.
        case missingKey(path: String)
        /// The value at `path` (empty: the body) is not an object, so the next key cannot be read.
        case notAnObject(path: String)
        /// A single-key envelope found these keys (sorted) instead of exactly one.
        case notASingleKey(keys: [String])

        /// A one-line description naming the path or the keys found.
        public var description: String {
            switch self {
            case .missingKey(let path): "the envelope has no key \(path.debugDescription)"
            case .notAnObject(let path):
                path.isEmpty
                    ? "the body is not an object" : "the envelope value at \(path.debugDescription) is not an object"
            case .notASingleKey(let keys): "the envelope has \(keys.count) keys \(keys) instead of one"
            }
        }
    }
}
