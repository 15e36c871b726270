import OpenAPIKit

extension ModelBuilder {
    /// The Swift type of `schema`; an inline object, enum or choice is declared in `nested` under a name
    /// made from `name`, unique in `scope`. Nullability is the caller's.
    func type(
        of schema: JSONSchema,
        name: String,
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> TypeRef {
        switch schema.value {
        case .reference(let reference, _):
            guard let target = target(of: reference, location: location) else { return .jsonValue }
            return componentType(target.name)
        case .boolean:
            return .plain("Bool")
        case .integer(let core, _):
            let integer = Self.integerType(core.format)
            if schema.allowedValues != nil {
                let declared = scope.unique(name)
                let cases = integerEnumCases(schema)
                nested.append(.valueEnum(name: declared, doc: nil, cases: cases, rawType: integer, isModel: false))
                var type = TypeRef.plain(declared)
                type.enumRawType = integer
                return type
            }
            return .plain(integer)
        case .number(let core, _):
            switch core.format {
            case .float: return .plain("Float")
            default: return .plain("Double")
            }
        case .string(let core, let string):
            if schema.allowedValues != nil {
                let declared = scope.unique(name)
                let cases = enumCases(schema)
                nested.append(.valueEnum(name: declared, doc: nil, cases: cases, rawType: "String", isModel: false))
                var type = TypeRef.plain(declared)
                type.enumRawType = "String"
                return type
            }
            if core.format == .uuid { return .plain("UUID") }
            if string.contentEncoding == .base64 || core.formatString == "byte" { return .plain("Data") }
            if string.contentEncoding == .binary || core.formatString == "binary" {
                report(location, "binary data inside a JSON value is kept as a String")
            }
            // date-time and date stay text: CoreAPIJSON's default decoder reads no dates.
            return .plain("String")
        case .array(_, let array):
            guard let items = array.items else { return TypeRef.jsonValue.array }
            var element = type(
                of: items,
                name: name.hasSuffix("s") && name.count > 1 ? String(name.dropLast()) : name + "Item",
                location: location + "/items",
                scope: &scope,
                nested: &nested
            )
            if items.nullable { element = element.optional }
            return element.array
        case .object(_, let object):
            if object.properties.isEmpty {
                switch object.additionalProperties {
                case .b(let valueSchema):
                    var value = type(
                        of: valueSchema,
                        name: name + "Value",
                        location: location + "/additionalProperties",
                        scope: &scope,
                        nested: &nested
                    )
                    if valueSchema.nullable { value = value.optional }
                    return .plain("[String: \(value.code)]")
                default:
                    return .plain("[String: JSONValue]")
                }
            }
            return declareInline(schema, name: name, location: location, scope: &scope, nested: &nested)
        case .all(let parts, _):
            if parts.count == 1 {
                return type(of: parts[0], name: name, location: location + "/allOf/0", scope: &scope, nested: &nested)
            }
            return declareInline(schema, name: name, location: location, scope: &scope, nested: &nested)
        case .one(let options, _), .any(let options, _):
            let concrete = options.filter { !$0.isNull }
            if concrete.count == 1 {
                let type = type(of: concrete[0], name: name, location: location, scope: &scope, nested: &nested)
                return concrete.count < options.count ? type.optional : type
            }
            return declareInline(schema, name: name, location: location, scope: &scope, nested: &nested)
        case .not:
            report(location, "a `not` schema cannot be expressed; JSONValue used")
            return .jsonValue
        case .null, .fragment:
            return .jsonValue
        }
    }

    /// Declares `schema` as a nested type named from `name` and returns its type.
    private func declareInline(
        _ schema: JSONSchema,
        name: String,
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> TypeRef {
        let declared = scope.unique(name)
        nested.append(declaration(for: schema, name: declared, location: location, isModel: false))
        return .plain(declared)
    }
}
