/// Writes generated declarations as Swift source.
enum DeclarationWriter {
    static func conformances(_ isModel: Bool) -> String {
        isModel ? "Codable, Hashable, Sendable, JSONApiResponse" : "Codable, Hashable, Sendable"
    }

    static func write(_ declaration: Declaration, to writer: inout SourceWriter) {
        switch declaration {
        case .structure(let name, let doc, let properties, let nested, let isModel):
            writer.doc(doc, public: "`\(name)`, as the document describes it.")
            writer.typeBlock("\(writer.access)struct \(name)", conformances: conformances(isModel)) { writer in
                writeProperties(properties, to: &writer)
                let defaults = properties.contains { $0.defaultValue != nil }
                let readOnly = properties.contains(where: \.isReadOnly)
                writeCodingKeys(properties, always: defaults || readOnly, to: &writer)
                if defaults || writer.isPublic { writeMemberwiseInit(properties, to: &writer) }
                if defaults { writeDecodingDefaults(properties, to: &writer) }
                if readOnly { writeEncodingWithoutReadOnly(properties, to: &writer) }
                writeNested(nested, to: &writer)
            }
        case .valueEnum(let name, let doc, let cases, let rawType, let isModel):
            writeValueEnum(name: name, doc: doc, cases: cases, rawType: rawType, isModel: isModel, to: &writer)
        case .oneOf(let name, let doc, let variants, let discriminator, let nested, let isModel):
            writeChoice(
                name: name,
                doc: doc,
                variants: variants,
                discriminator: discriminator,
                nested: nested,
                isModel: isModel,
                to: &writer
            )
        case .alias(let name, let doc, let type, let nested):
            writer.doc(doc, public: "`\(name)`, as the document describes it.")
            writer.line("\(writer.access)typealias \(name) = \(type.code)")
            writeNested(nested, to: &writer)
        }
    }

    static func writeNested(_ nested: [Declaration], to writer: inout SourceWriter) {
        for declaration in nested {
            writer.line()
            write(declaration, to: &writer)
        }
    }

    static func writeProperties(_ properties: [Property], to writer: inout SourceWriter) {
        for property in properties {
            writer.doc(property.doc, public: "`\(property.wireName)`.")
            if property.deprecated { writer.line("/// Deprecated in the document.") }
            let wrapper = property.indirectWrapper.map { "@\($0) " } ?? ""
            let initial = property.defaultValue.map { " = \($0)" } ?? ""
            let name = SwiftNames.escaped(property.swiftName)
            writer.line("\(wrapper)\(writer.access)var \(name): \(property.type.code)\(initial)")
        }
    }

    /// `CodingKeys`, when a Swift name differs from its wire name or `always`.
    static func writeCodingKeys(_ properties: [Property], always: Bool = false, to writer: inout SourceWriter) {
        guard always || properties.contains(where: { $0.swiftName != $0.wireName }) else { return }
        writer.line()
        writer.block("private enum CodingKeys: String, CodingKey") { writer in
            for property in properties {
                let name = SwiftNames.escaped(property.swiftName)
                if property.swiftName == property.wireName {
                    writer.line("case \(name)")
                } else {
                    writer.line("case \(name) = \"\(property.wireName.swiftLiteral)\"")
                }
            }
        }
    }

    /// An enum over `rawType` (`String` or an integer type) whose unlisted values decode as `unknown`.
    static func writeValueEnum(
        name: String,
        doc: String?,
        cases: [(name: String, wire: String)],
        rawType: String,
        isModel: Bool,
        to writer: inout SourceWriter
    ) {
        func literal(_ wire: String) -> String { rawType == "String" ? "\"\(wire.swiftLiteral)\"" : wire }
        writer.doc(doc, public: "`\(name)`, as the document describes it.")
        let enumConformances = "RawRepresentable, " + conformances(isModel)
        writer.typeBlock("\(writer.access)enum \(name)", conformances: enumConformances) { writer in
            for item in cases {
                writer.line("case \(SwiftNames.escaped(item.name))")
            }
            writer.line("/// A value the document does not list, kept as it was sent.")
            writer.line("case unknown(\(rawType))")
            writer.line()
            writer.doc(nil, public: "The case of `rawValue`, or `unknown`.")
            writer.block("\(writer.access)init(rawValue: \(rawType))") { writer in
                writer.switchBlock("rawValue") { writer in
                    for item in cases {
                        writer.caseLine(literal(item.wire), "self = .\(SwiftNames.escaped(item.name))")
                    }
                    writer.line("default: self = .unknown(rawValue)")
                }
            }
            writer.line()
            writer.doc(nil, public: "The value as it is sent.")
            writer.block("\(writer.access)var rawValue: \(rawType)") { writer in
                writer.switchBlock("self") { writer in
                    for item in cases {
                        writer.caseLine(".\(SwiftNames.escaped(item.name))", literal(item.wire))
                    }
                    writer.line("case .unknown(let value): value")
                }
            }
        }
    }
}
