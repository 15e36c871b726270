import OpenAPIKit

/// Turns JSON schemas into Swift types, declaring the inline ones in the scope that uses them.
final class ModelBuilder {
    let components: OpenAPI.Components
    /// The Swift name of each component schema.
    private(set) var componentNames: [String: String] = [:]
    private(set) var diagnostics: [Diagnostic] = []
    /// The type each component schema stands for, once resolved.
    private var componentTypes: [String: TypeRef] = [:]

    init(components: OpenAPI.Components, reserved: Set<String>) {
        self.components = components
        var scope = NameScope(reserved: reserved)
        for key in components.schemas.keys.map(\.rawValue).sorted() {
            componentNames[key] = scope.unique(SwiftNames.typeName(key))
        }
    }

    func report(_ location: String, _ message: String) {
        diagnostics.append(Diagnostic(location: location, message: message))
    }

    /// The schema a reference points to, or `nil` (reported) when it is not a component schema here.
    func target(of reference: JSONReference<JSONSchema>, location: String) -> (name: String, schema: JSONSchema)? {
        guard let name = reference.name, reference.isInternal,
            let schema = components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
        else {
            report(location, "reference \(reference.absoluteString) is not a schema of this document; JSONValue used")
            return nil
        }
        return (name, schema)
    }

    /// The type of component schema `key`: its declared name, or what it aliases.
    func componentType(_ key: String) -> TypeRef {
        if let known = componentTypes[key] { return known }
        let name = componentNames[key] ?? SwiftNames.typeName(key)
        // Assume a model until the declaration says otherwise, which breaks reference cycles.
        componentTypes[key] = TypeRef(code: name, isJSONResponse: true)
        guard let schema = components.schemas[OpenAPI.ComponentKey(stringLiteral: key)] else { return .jsonValue }
        let declaration = declaration(
            for: schema,
            name: name,
            location: "#/components/schemas/\(Diagnostic.token(key))"
        )
        var type = TypeRef(code: name, isJSONResponse: true)
        switch declaration {
        case .alias(_, _, let aliased, _):
            type.isJSONResponse = aliased.isJSONResponse
            type.enumRawType = aliased.enumRawType
            type.element = aliased.element
        case .valueEnum(_, _, _, let rawType, _):
            type.enumRawType = rawType
        default:
            break
        }
        componentTypes[key] = type
        return type
    }

    /// The declaration of a top-level component schema.
    func componentDeclaration(_ key: String) -> Declaration {
        let name = componentNames[key] ?? SwiftNames.typeName(key)
        let schema = components.schemas[OpenAPI.ComponentKey(stringLiteral: key)] ?? .fragment
        return declaration(for: schema, name: name, location: "#/components/schemas/\(Diagnostic.token(key))")
    }

    /// The declaration a named schema becomes: a struct, an enum or a type alias.
    func declaration(for schema: JSONSchema, name: String, location: String, isModel: Bool = true) -> Declaration {
        let doc = schema.description ?? schema.title
        var scope = NameScope(reserved: Set(componentNames.values).union([name]))
        var nested: [Declaration] = []
        switch schema.value {
        case .object(_, let object) where !object.properties.isEmpty:
            let properties = self.properties(
                of: object.properties.map { ($0.key, $0.value) },
                location: location,
                scope: &scope,
                nested: &nested
            )
            if case .b = object.additionalProperties {
                report(location + "/additionalProperties", "additional properties beside named ones are not kept")
            }
            return .structure(name: name, doc: doc, properties: properties, nested: nested, isModel: isModel)
        case .all(let parts, _):
            let merged = mergedProperties(parts, location: location + "/allOf")
            if merged.isEmpty, parts.count == 1 {
                if parts[0].reference == nil {
                    return declaration(for: parts[0], name: name, location: location + "/allOf/0", isModel: isModel)
                }
                let type = type(of: parts[0], name: name + "Value", location: location, scope: &scope, nested: &nested)
                return .alias(name: name, doc: doc, type: type, nested: nested)
            }
            let properties = self.properties(of: merged, location: location, scope: &scope, nested: &nested)
            return .structure(name: name, doc: doc, properties: properties, nested: nested, isModel: isModel)
        case .one(let options, _), .any(let options, _):
            let kind = if case .one = schema.value { "oneOf" } else { "anyOf" }
            let concrete = options.filter { !$0.isNull }
            if concrete.count == 1 {
                if concrete.count == options.count, concrete[0].reference == nil {
                    return declaration(
                        for: concrete[0],
                        name: name,
                        location: location + "/\(kind)/0",
                        isModel: isModel
                    )
                }
                let type = type(
                    of: concrete[0],
                    name: name + "Value",
                    location: location + "/\(kind)/0",
                    scope: &scope,
                    nested: &nested
                )
                return .alias(
                    name: name,
                    doc: doc,
                    type: concrete.count < options.count ? type.optional : type,
                    nested: nested
                )
            }
            var caseScope = NameScope(reserved: ["unknown"])
            var variants: [Variant] = []
            for (index, option) in options.enumerated() where !option.isNull {
                let optionLocation = location + "/\(kind)/\(index)"
                var caseName: String
                var tags: [String] = []
                if let reference = option.reference, let name = reference.name {
                    caseName = SwiftNames.memberName(name)
                    tags = tagsFor(reference: name, discriminator: schema.discriminator)
                } else {
                    caseName = "variant\(index + 1)"
                }
                let type = type(
                    of: option,
                    name: "Variant\(index + 1)",
                    location: optionLocation,
                    scope: &scope,
                    nested: &nested
                )
                if option.reference == nil { caseName = SwiftNames.memberName(type.code) }
                variants.append(Variant(caseName: caseScope.unique(caseName), type: type, tags: tags))
            }
            return .oneOf(
                name: name,
                doc: doc,
                variants: variants,
                discriminator: schema.discriminator?.propertyName,
                nested: nested,
                isModel: isModel
            )
        case .string(_, _) where schema.allowedValues != nil:
            return .valueEnum(name: name, doc: doc, cases: enumCases(schema), rawType: "String", isModel: isModel)
        case .integer(let core, _) where schema.allowedValues != nil:
            return .valueEnum(
                name: name,
                doc: doc,
                cases: integerEnumCases(schema),
                rawType: Self.integerType(core.format),
                isModel: isModel
            )
        default:
            let type = type(of: schema, name: name + "Value", location: location, scope: &scope, nested: &nested)
            return .alias(name: name, doc: doc, type: type, nested: nested)
        }
    }

    /// The discriminator values that select the component `name`: its mapping keys, or its name.
    func tagsFor(reference name: String, discriminator: OpenAPI.Discriminator?) -> [String] {
        guard let discriminator else { return [] }
        if let mapping = discriminator.mapping {
            let tags = mapping.filter { $0.value == name || $0.value.hasSuffix("/" + name) }.map(\.key)
            if !tags.isEmpty { return tags }
        }
        return [name]
    }

    /// The cases of a string enum, named uniquely, with their wire values, in document order.
    func enumCases(_ schema: JSONSchema) -> [(name: String, wire: String)] {
        var scope = NameScope(reserved: ["unknown"])
        var cases: [(name: String, wire: String)] = []
        var seen: Set<String> = []
        for value in schema.allowedValues ?? [] {
            guard let wire = value.value as? String, seen.insert(wire).inserted else { continue }
            let name = SwiftNames.memberName(wire)
            cases.append((scope.unique(name == "unknown" ? "unknownValue" : name), wire))
        }
        return cases
    }

    /// The cases of an integer enum in document order, named by the schema's `x-enum-varnames` when it
    /// lists one name per value, else `value1`, `minus1`, with their wire values as Swift literals.
    func integerEnumCases(_ schema: JSONSchema) -> [(name: String, wire: String)] {
        var scope = NameScope(reserved: ["unknown"])
        let values = (schema.allowedValues ?? []).compactMap { value -> Int? in
            if let integer = value.value as? Int { return integer }
            if let double = value.value as? Double, let integer = Int(exactly: double) { return integer }
            return nil
        }
        let given = (schema.vendorExtensions["x-enum-varnames"]?.value as? [Any])?.compactMap { $0 as? String }
        let names = given?.count == values.count ? given : nil
        var cases: [(name: String, wire: String)] = []
        var seen: Set<Int> = []
        for (index, value) in values.enumerated() where seen.insert(value).inserted {
            var name = names.map { SwiftNames.memberName($0[index]) } ?? "value\(value.magnitude)"
            if names == nil, value < 0 { name = "minus\(value.magnitude)" }
            cases.append((scope.unique(name == "unknown" ? "unknownValue" : name), String(value)))
        }
        return cases
    }

    /// The Swift integer type of an integer schema's format.
    static func integerType(_ format: JSONTypeFormat.IntegerFormat) -> String {
        switch format {
        case .int32: "Int32"
        case .int64: "Int64"
        default: "Int"
        }
    }

    /// The named properties of every part of an `allOf`, references followed, in order.
    func mergedProperties(_ parts: [JSONSchema], location: String) -> [(String, JSONSchema)] {
        var result: [(String, JSONSchema)] = []
        var visited: Set<String> = []
        func add(_ schema: JSONSchema, at location: String) {
            switch schema.value {
            case .reference(let reference, _):
                guard let target = target(of: reference, location: location), visited.insert(target.name).inserted
                else {
                    return
                }
                add(target.schema, at: "#/components/schemas/\(Diagnostic.token(target.name))")
            case .object(_, let object):
                for (key, value) in object.properties {
                    if let index = result.firstIndex(where: { $0.0 == key }) {
                        // A later part's schema wins, but a name it only lists as required (a fragment) keeps
                        // the earlier schema; required in any part is required in the whole.
                        let earlier = result[index].1
                        var merged = value.isFragment ? earlier : value
                        if earlier.required || value.required { merged = merged.requiredSchemaObject() }
                        result[index] = (key, merged)
                    } else {
                        result.append((key, value))
                    }
                }
            case .all(let inner, _):
                for (index, part) in inner.enumerated() { add(part, at: location + "/allOf/\(index)") }
            case .fragment:
                break
            default:
                report(location, "an allOf part that is not an object is left out of the merged model")
            }
        }
        for (index, part) in parts.enumerated() { add(part, at: location + "/\(index)") }
        return result
    }

    /// Properties with unique Swift names, optional unless required and not nullable.
    func properties(
        of schemas: [(String, JSONSchema)],
        location: String,
        scope: inout NameScope,
        nested: inout [Declaration]
    ) -> [Property] {
        var names = NameScope()
        var result: [Property] = []
        for (wire, schema) in schemas {
            let swiftName = names.unique(SwiftNames.memberName(wire))
            var type = type(
                of: schema,
                name: SwiftNames.typeName(wire),
                location: location + "/properties/\(Diagnostic.token(wire))",
                scope: &scope,
                nested: &nested
            )
            let plain = type
            // A read-only property is absent from requests and a write-only one from responses: each is
            // optional so that a value of the other direction is whole without it.
            let oneWay = schema.readOnly || schema.writeOnly
            if !schema.required || schema.nullable || oneWay { type = type.optional }
            var direction: String?
            if schema.readOnly { direction = "Read-only: the server sets it; it is never sent." }
            if schema.writeOnly { direction = "Write-only: it is sent, and responses leave it out." }
            let paragraphs = [schema.description, direction].compactMap { $0 }
            let doc = paragraphs.isEmpty ? nil : paragraphs.joined(separator: "\n\n")
            var property = Property(
                swiftName: swiftName,
                wireName: wire,
                type: type,
                doc: doc,
                deprecated: schema.deprecated
            )
            property.isReadOnly = schema.readOnly
            result.append(oneWay ? property : applyingDefault(property, schema: schema, type: plain))
        }
        return result
    }
}
