extension DeclarationWriter {
    /// A `oneOf`/`anyOf` as an enum with a case per option: chosen by the discriminator when there is
    /// one (an unlisted value is kept as `unknown`), else the first option that decodes.
    static func writeChoice(
        name: String,
        doc: String?,
        variants: [Variant],
        discriminator: String?,
        nested: [Declaration],
        isModel: Bool,
        to writer: inout SourceWriter
    ) {
        writer.doc(doc, public: "`\(name)`, one of the options the document lists.")
        // Indirect, so an option may contain the choice itself.
        writer.typeBlock("\(writer.access)indirect enum \(name)", conformances: conformances(isModel)) { writer in
            for variant in variants {
                writer.line("case \(SwiftNames.escaped(variant.caseName))(\(variant.type.code))")
            }
            if discriminator != nil {
                writer.line("/// A value whose discriminator the document does not list, kept as it was sent.")
                writer.line("case unknown(JSONValue)")
            }
            writer.line()
            if let discriminator {
                writer.block("private enum DiscriminatorKeys: String, CodingKey") { writer in
                    writer.line("case discriminator = \"\(discriminator.swiftLiteral)\"")
                }
                writer.line()
                writer.doc(nil, public: "The option the discriminator names.")
                writer.block("\(writer.access)init(from decoder: any Decoder) throws") { writer in
                    writer.line("let container = try decoder.container(keyedBy: DiscriminatorKeys.self)")
                    writer.switchBlock("try container.decodeIfPresent(String.self, forKey: .discriminator)") { writer in
                        for variant in variants where !variant.tags.isEmpty {
                            let tags = variant.tags.map { "\"\($0.swiftLiteral)\"" }.joined(separator: ", ")
                            let name = SwiftNames.escaped(variant.caseName)
                            writer.caseLine(tags, "self = .\(name)(try \(variant.type.code)(from: decoder))")
                        }
                        writer.line("default: self = .unknown(try JSONValue(from: decoder))")
                    }
                }
            } else {
                writer.doc(nil, public: "The first option that decodes.")
                writer.block("\(writer.access)init(from decoder: any Decoder) throws") { writer in
                    writer.line("let container = try decoder.singleValueContainer()")
                    for variant in variants {
                        writer.block("if let value = try? container.decode(\(variant.type.code).self)") { writer in
                            writer.line("self = .\(SwiftNames.escaped(variant.caseName))(value)")
                            writer.line("return")
                        }
                    }
                    writer.line("throw DecodingError.dataCorruptedError(")
                    writer.line("    in: container,")
                    writer.line("    debugDescription: \"The value matches none of \(name)'s options.\"")
                    writer.line(")")
                }
            }
            writer.line()
            writer.doc(nil, public: "Encodes the option's value.")
            writer.block("\(writer.access)func encode(to encoder: any Encoder) throws") { writer in
                writer.switchBlock("self") { writer in
                    for variant in variants {
                        let name = SwiftNames.escaped(variant.caseName)
                        writer.caseLine(".\(name)(let value)", "try value.encode(to: encoder)")
                    }
                    if discriminator != nil {
                        writer.line("case .unknown(let value): try value.encode(to: encoder)")
                    }
                }
            }
            writeNested(nested, to: &writer)
        }
    }
}
