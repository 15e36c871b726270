extension DeclarationWriter {
    /// `encode(to:)` writing every property but the read-only ones, which the server sets: a value read
    /// from a response can be sent back as it is.
    static func writeEncodingWithoutReadOnly(_ properties: [Property], to writer: inout SourceWriter) {
        writer.line()
        writer.line("/// Encodes every property but the read-only ones, which the server sets.")
        writer.block("\(writer.access)func encode(to encoder: any Encoder) throws") { writer in
            guard properties.contains(where: { !$0.isReadOnly }) else {
                writer.line("_ = encoder.container(keyedBy: CodingKeys.self)")
                return
            }
            writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            for property in properties where !property.isReadOnly {
                let name = SwiftNames.escaped(property.swiftName)
                if property.indirectWrapper != nil {
                    writer.line("try container.encode(_\(property.swiftName), forKey: .\(name))")
                } else if property.type.isOptional {
                    writer.line("try container.encodeIfPresent(\(name), forKey: .\(name))")
                } else {
                    writer.line("try container.encode(\(name), forKey: .\(name))")
                }
            }
        }
    }
}
