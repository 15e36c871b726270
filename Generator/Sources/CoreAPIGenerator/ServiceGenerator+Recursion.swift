extension ServiceGenerator {
    /// The component declarations with every stored property that would make a struct contain itself —
    /// through properties of structs, not arrays, maps or enums — boxed by the family's indirect wrapper.
    func breakingCycles(_ declarations: [Declaration]) -> (declarations: [Declaration], boxed: Bool) {
        let structNames = Set(declarations.compactMap { if case .structure = $0 { $0.name } else { nil } })
        var edges: [String: Set<String>] = [:]
        for declaration in declarations {
            edges[declaration.name] = Self.storedTargets(declaration, among: structNames)
        }
        func reaches(_ start: String, _ goal: String) -> Bool {
            var seen: Set<String> = []
            var stack = [start]
            while let name = stack.popLast() {
                if name == goal { return true }
                guard seen.insert(name).inserted else { continue }
                stack += edges[name] ?? []
            }
            return false
        }
        var boxed = false
        let wrapper = familyName + "Indirect"
        let result = declarations.map { declaration in
            Self.mapProperties(declaration) { property in
                let target = property.type.code.replacingOccurrences(of: "?", with: "")
                guard property.type.element == nil, structNames.contains(target), reaches(target, declaration.name)
                else { return property }
                boxed = true
                var copy = property
                copy.indirectWrapper = wrapper
                return copy
            }
        }
        return (result, boxed)
    }

    /// The struct components a declaration stores inline, its nested structs' included.
    static func storedTargets(_ declaration: Declaration, among names: Set<String>) -> Set<String> {
        guard case .structure(_, _, let properties, let nested, _) = declaration else { return [] }
        var targets: Set<String> = []
        for property in properties where property.type.element == nil {
            let target = property.type.code.replacingOccurrences(of: "?", with: "")
            if names.contains(target) { targets.insert(target) }
        }
        for inner in nested { targets.formUnion(storedTargets(inner, among: names)) }
        return targets
    }

    /// `declaration` with `transform` applied to its and its nested structs' properties.
    static func mapProperties(_ declaration: Declaration, _ transform: (Property) -> Property) -> Declaration {
        guard case .structure(let name, let doc, let properties, let nested, let isModel) = declaration else {
            return declaration
        }
        return .structure(
            name: name,
            doc: doc,
            properties: properties.map(transform),
            nested: nested.map { mapProperties($0, transform) },
            isModel: isModel
        )
    }

    /// The property wrapper that boxes a value whose type contains the property's own type.
    func writeIndirectWrapper(to writer: inout SourceWriter) {
        let name = familyName + "Indirect"
        writer.line()
        writer.doc("Stores a value on the heap, for a model that contains a model of its own type.")
        writer.line("@propertyWrapper")
        let access = writer.access
        writer.block("\(access)struct \(name)<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable") {
            writer in
            writer.block("private indirect enum Storage: Hashable, Sendable") { writer in
                writer.line("case value(Value)")
            }
            writer.line()
            writer.line("private var storage: Storage")
            writer.line()
            writer.line("/// The value.")
            writer.block("\(access)var wrappedValue: Value") { writer in
                writer.block("get") { writer in
                    writer.switchBlock("storage") { writer in
                        writer.line("case .value(let value): value")
                    }
                }
                writer.line("set { storage = .value(newValue) }")
            }
            writer.line()
            writer.doc(nil, public: "Stores `wrappedValue`.")
            writer.block("\(access)init(wrappedValue: Value)") { writer in
                writer.line("storage = .value(wrappedValue)")
            }
            writer.line()
            writer.doc(nil, public: "Decodes the value.")
            writer.block("\(access)init(from decoder: any Decoder) throws") { writer in
                writer.line("storage = .value(try Value(from: decoder))")
            }
            writer.line()
            writer.doc(nil, public: "Encodes the value.")
            writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
                writer.line("try wrappedValue.encode(to: encoder)")
            }
        }
        writer.line()
        writer.block("extension KeyedDecodingContainer") { writer in
            writer.line("/// An absent or `null` optional boxed value decodes as `nil`, as an unboxed one does.")
            writer.line("func decode<Wrapped>(")
            writer.line("    _ type: \(name)<Wrapped?>.Type,")
            writer.line("    forKey key: Key")
            writer.block(") throws -> \(name)<Wrapped?>") { writer in
                writer.line("\(name)(wrappedValue: try decodeIfPresent(Wrapped.self, forKey: key))")
            }
        }
        writer.line()
        writer.block("extension KeyedEncodingContainer") { writer in
            writer.line("/// A `nil` optional boxed value is left out, as an unboxed one is.")
            writer.block("mutating func encode<Wrapped>(_ value: \(name)<Wrapped?>, forKey key: Key) throws") {
                writer in
                writer.line("try encodeIfPresent(value.wrappedValue, forKey: key)")
            }
        }
    }
}
