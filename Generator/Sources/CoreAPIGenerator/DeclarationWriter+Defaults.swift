extension DeclarationWriter {
    /// The memberwise initializer, written out when the struct declares another initializer or is public (a
    /// synthesized one is internal): an optional argument defaults to `nil`, and one with a default to it.
    static func writeMemberwiseInit(
        _ properties: [Property],
        doc: String = "Creates a value from its properties.",
        to writer: inout SourceWriter
    ) {
        writer.line()
        var parameters: [String] = []
        for property in properties {
            var parameter = "\(SwiftNames.escaped(property.swiftName)): \(property.type.code)"
            if let value = property.defaultValue {
                parameter += " = \(value)"
            } else if property.type.isOptional {
                parameter += " = nil"
            }
            parameters.append(parameter)
        }
        writer.line("/// \(doc)")
        guard !parameters.isEmpty else {
            writer.line("\(writer.access)init() {}")
            return
        }
        let single = "\(writer.access)init(\(parameters.joined(separator: ", "))) {"
        if writer.fits(single) {
            writer.line(single)
        } else {
            writer.line("\(writer.access)init(")
            for (index, parameter) in parameters.enumerated() {
                writer.line("    " + parameter + (index < parameters.count - 1 ? "," : ""))
            }
            writer.line(") {")
        }
        writer.indented { writer in
            for property in properties {
                let name = SwiftNames.escaped(property.swiftName)
                writer.line("self.\(name) = \(name)")
            }
        }
        writer.line("}")
    }

    /// `init(from:)`, which decodes an absent key of a property with a default as that default.
    static func writeDecodingDefaults(_ properties: [Property], to writer: inout SourceWriter) {
        writer.line()
        writer.doc(nil, public: "Decodes the value; an absent property with a default takes it.")
        writer.block("\(writer.access)init(from decoder: any Decoder) throws") { writer in
            writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            for property in properties {
                let name = SwiftNames.escaped(property.swiftName)
                let key = "forKey: .\(name)"
                if let wrapper = property.indirectWrapper {
                    let boxed = "\(wrapper)<\(property.type.code)>"
                    writer.call("_\(property.swiftName) = try container.decode", arguments: ["\(boxed).self", key])
                } else if property.type.isOptional {
                    let type = String(property.type.code.dropLast())
                    writer.call("self.\(name) = try container.decodeIfPresent", arguments: ["\(type).self", key])
                } else if let value = property.defaultValue {
                    writer.assignmentWithDefault(
                        "self.\(name)",
                        call: "try container.decodeIfPresent",
                        arguments: ["\(property.type.code).self", key],
                        default: value
                    )
                } else {
                    writer.call("self.\(name) = try container.decode", arguments: ["\(property.type.code).self", key])
                }
            }
        }
    }
}
