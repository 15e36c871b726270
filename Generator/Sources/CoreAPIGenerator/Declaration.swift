/// A Swift type the generator refers to: its spelling, and what the response pipeline can do with it.
struct TypeRef: Hashable, Sendable {
    /// The type as written in code, such as `[Pet]` or `String?`.
    var code: String
    /// The type conforms to `JSONApiResponse` (a generated model, an array of them, `JSONValue`).
    var isJSONResponse = false
    /// The raw type (`String`, `Int`, …) when the type is a generated enum, written to text through its
    /// `rawValue`; `nil` otherwise.
    var enumRawType: String? = nil
    /// The element, when the type is an array (kept in an array so the type can contain itself).
    private var elementStorage: [TypeRef] = []
    /// The type is optional.
    var isOptional = false

    init(code: String, isJSONResponse: Bool = false) {
        self.code = code
        self.isJSONResponse = isJSONResponse
    }

    /// The element, when the type is an array.
    var element: TypeRef? {
        get { elementStorage.first }
        set { elementStorage = newValue.map { [$0] } ?? [] }
    }

    static func plain(_ code: String) -> TypeRef { TypeRef(code: code) }
    static let jsonValue = TypeRef(code: "JSONValue", isJSONResponse: true)

    /// `[self]`.
    var array: TypeRef {
        var array = TypeRef(code: "[\(code)]", isJSONResponse: isJSONResponse && !isOptional)
        array.element = self
        return array
    }

    /// `self?`, or `self` when it already is optional.
    var optional: TypeRef {
        if isOptional { return self }
        var copy = self
        copy.code += "?"
        copy.isOptional = true
        copy.isJSONResponse = false
        return copy
    }

    /// `self` without its `?`, for a value that is always present (a path parameter).
    var nonOptional: TypeRef {
        guard isOptional, code.hasSuffix("?") else { return self }
        var copy = self
        copy.code.removeLast()
        copy.isOptional = false
        return copy
    }
}

/// A stored property of a generated struct.
struct Property {
    var swiftName: String
    var wireName: String
    var type: TypeRef
    var doc: String?
    var deprecated = false
    /// The property wrapper that boxes a value whose type contains this property's type, or `nil`.
    var indirectWrapper: String? = nil
    /// The document's default as a Swift expression of `type`, when the property takes it for an absent
    /// key (its type then is not optional), or `nil`.
    var defaultValue: String? = nil
    /// The property is `readOnly`: the server sets it, so it is optional and never encoded.
    var isReadOnly = false
}

/// A case of a generated `oneOf`/`anyOf` enum.
struct Variant {
    var caseName: String
    var type: TypeRef
    /// The discriminator values that select this case.
    var tags: [String]
}

/// A type the generator declares.
indirect enum Declaration {
    case structure(name: String, doc: String?, properties: [Property], nested: [Declaration], isModel: Bool)
    /// A string or integer enum with an `unknown` case; each case's `wire` is its raw value as text.
    case valueEnum(name: String, doc: String?, cases: [(name: String, wire: String)], rawType: String, isModel: Bool)
    case oneOf(
        name: String,
        doc: String?,
        variants: [Variant],
        discriminator: String?,
        nested: [Declaration],
        isModel: Bool
    )
    /// A type alias; `nested` are declarations its type uses, written beside it.
    case alias(name: String, doc: String?, type: TypeRef, nested: [Declaration])

    var name: String {
        switch self {
        case .structure(let name, _, _, _, _), .valueEnum(let name, _, _, _, _), .oneOf(let name, _, _, _, _, _),
            .alias(let name, _, _, _):
            return name
        }
    }
}
