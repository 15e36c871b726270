import Foundation
import OpenAPIKit

extension ModelBuilder {
    /// `schema`'s `default` as a Swift expression of `type` (not optional), or `nil` when there is none or
    /// it is not a Bool, a number, a string or a case of the schema's own enum.
    func defaultLiteral(of schema: JSONSchema, type: TypeRef) -> String? {
        guard let value = schema.defaultValue?.value else { return nil }
        if type.element != nil { return (value as? [Any])?.isEmpty == true ? "[]" : nil }
        if let raw = type.enumRawType {
            if raw == "String", let text = value as? String {
                let match = enumCases(schema).first { $0.wire == text }
                return match.map { ".\(SwiftNames.escaped($0.name))" } ?? ".unknown(\"\(text.swiftLiteral)\")"
            }
            if raw != "String", let number = Self.integer(value) {
                let match = integerEnumCases(schema).first { $0.wire == String(number) }
                return match.map { ".\(SwiftNames.escaped($0.name))" } ?? ".unknown(\(number))"
            }
            return nil
        }
        switch type.code {
        case "Bool":
            return (value as? Bool).map { $0 ? "true" : "false" }
        case "Int", "Int32", "Int64":
            return Self.integer(value).map(String.init)
        case "Double", "Float":
            if let number = Self.integer(value) { return String(number) }
            return (value as? Double).map { "\($0)" }
        case "String":
            return (value as? String).map { "\"\($0.swiftLiteral)\"" }
        default:
            return nil
        }
    }

    /// `schema`'s `default` as the document writes it (JSON), for a doc comment, or `nil`.
    static func defaultText(of schema: JSONSchema) -> String? {
        guard let value = schema.defaultValue else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `value` as an integer, when it is one (a whole `Double` included).
    static func integer(_ value: Any) -> Int? {
        if value is Bool { return nil }
        if let integer = value as? Int { return integer }
        if let double = value as? Double { return Int(exactly: double) }
        return nil
    }

    /// The property a schema with a `default` becomes: not optional with the default as its initial value
    /// (an absent key decodes as it; a parameter is sent with it unless set) when it is not nullable and the
    /// default is a Swift literal, else as it was; either way its doc comment says the default.
    func applyingDefault(
        _ property: Property,
        schema: JSONSchema,
        type: TypeRef,
        isParameter: Bool = false
    ) -> Property {
        guard let text = Self.defaultText(of: schema) else { return property }
        var result = property
        if !schema.nullable, let literal = defaultLiteral(of: schema, type: type) {
            result.type = type
            result.defaultValue = literal
            let note =
                isParameter ? "Defaults to `\(text)`, the document's default." : "Defaults to `\(text)` when absent."
            result.doc = [property.doc, note].compactMap { $0 }.joined(separator: "\n\n")
        } else {
            let note = "The document's default: `\(text)`."
            result.doc = [property.doc, note].compactMap { $0 }.joined(separator: "\n\n")
        }
        return result
    }
}
