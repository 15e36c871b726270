import Foundation

/// Turns wire names into valid Swift identifiers, keeping them unique within a scope.
enum SwiftNames {
    /// Words that must be written in backticks to be an identifier.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "as", "false", "is", "nil", "super", "throws", "true", "try", "any", "some",
        "await",
    ]

    /// Identifiers that backticks cannot rescue or that read badly: a suffix is added instead.
    static let avoidedMembers: Set<String> = ["self", "Self", "Type", "Protocol", "init", "Element", "Response"]

    /// Type names that would shadow the standard library, Foundation or CoreAPI.
    static let avoidedTypes: Set<String> = [
        "Error", "Type", "Self", "Protocol", "Any", "AnyObject", "String", "Int", "Int32", "Int64", "Double",
        "Float", "Bool", "Data", "Date", "URL", "UUID", "Result", "Optional", "Array", "Dictionary", "Set",
        "Decimal", "Codable", "Encodable", "Decodable", "Hashable", "Sendable", "JSONValue", "Headers", "Excluded",
        "HTTPMethod", "ApiMethod", "ApiError", "ApiResponse", "EmptyResponse", "JSONApiResponse", "RequestBody",
        "CallOptions", "URLInfo", "HostProvider", "Character", "Never", "Void", "Equatable", "CodingKeys",
        "Foundation", "CoreAPI", "CoreAPIJSON", "CoreAPIText", "Response", "Output", "HeaderFields",
    ]

    /// The parts of a wire name split at every character that cannot be in an identifier and at
    /// lower-to-upper case changes kept as they are.
    static func parts(_ raw: String) -> [String] {
        var parts: [String] = []
        var current = ""
        for scalar in raw.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// `UpperCamelCase` for a type.
    static func typeName(_ raw: String) -> String {
        var name = parts(raw).map(capitalizedFirst).joined()
        if name.isEmpty { name = "Value" }
        if let first = name.first, first.isNumber { name = "Type" + name }
        if avoidedTypes.contains(name) { name += "Model" }
        return name
    }

    /// `lowerCamelCase` for a property or case, written in backticks when it is a keyword.
    static func memberName(_ raw: String) -> String {
        let parts = parts(raw)
        guard let first = parts.first else { return "value" }
        var name = lowercasedLead(first) + parts.dropFirst().map(capitalizedFirst).joined()
        if let lead = name.first, lead.isNumber { name = "value" + name }
        if avoidedMembers.contains(name) { name += "Value" }
        return name
    }

    /// `name` as it is written in code: in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func capitalizedFirst(_ part: String) -> String {
        part.prefix(1).uppercased() + part.dropFirst()
    }

    /// `URL` → `url`, `URLPath` → `urlPath`, `Pet` → `pet`, `petId` → `petId`.
    static func lowercasedLead(_ part: String) -> String {
        let characters = Array(part)
        var upperRun = 0
        while upperRun < characters.count, characters[upperRun].isUppercase { upperRun += 1 }
        if upperRun == 0 { return part }
        if upperRun == characters.count { return part.lowercased() }
        let lowered = upperRun == 1 ? 1 : upperRun - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }
}

/// Hands out names unique within one scope, in the order they are asked for.
struct NameScope {
    private(set) var used: Set<String>

    init(reserved: Set<String> = []) {
        used = reserved
    }

    /// `name`, or `name2`, `name3`… when it is taken.
    mutating func unique(_ name: String) -> String {
        var candidate = name
        var counter = 2
        while used.contains(candidate) {
            candidate = name + String(counter)
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
