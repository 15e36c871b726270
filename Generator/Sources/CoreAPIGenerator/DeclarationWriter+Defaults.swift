extension DeclarationWriter {
    /// The memberwise initializer, written out since the struct declares another, and `init(from:)`, which
    /// decodes an absent key of a property with a default as that default.
    static func writeDecodingDefaults(_ properties: [Property], to writer: inout SourceWriter) {
        writer.line()
        var parameters: [String] = []
        for property in properties {
            var parameter = "\(SwiftNames.escaped(property.swiftName)): \(property.type.code)"
            if let value = property.defaultValue {
                parameter += " = \(value)"
            } else if property.type.isOptional && property.indirectWrapper == nil {
                parameter += " = nil"
            }
            parameters.append(parameter)
        }
        writer.line("/// Creates a value from its properties.")
        let single = "init(\(parameters.joined(separator: ", "))) {"
        if writer.fits(single) {
            writer.line(single)
        } else {
            writer.line("init(")
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
        writer.line()
        writer.block("init(from decoder: any Decoder) throws") { writer in
            writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            for property in properties {
                let name = SwiftNames.escaped(property.swiftName)
                let key = "forKey: .\(name)"
                if let wrapper = property.indirectWrapper {
                    let boxed = "\(wrapper)<\(property.type.code)>"
                    writer.line("_\(property.swiftName) = try container.decode(\(boxed).self, \(key))")
                } else if property.type.isOptional {
                    let type = String(property.type.code.dropLast())
                    writer.line("self.\(name) = try container.decodeIfPresent(\(type).self, \(key))")
                } else if let value = property.defaultValue {
                    let type = property.type.code
                    writer.line("self.\(name) = try container.decodeIfPresent(\(type).self, \(key)) ?? \(value)")
                } else {
                    writer.line("self.\(name) = try container.decode(\(property.type.code).self, \(key))")
                }
            }
        }
    }
}
