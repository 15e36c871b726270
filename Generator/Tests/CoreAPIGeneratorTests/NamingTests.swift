import CoreAPIGenerator
import Foundation
import Testing

@Suite("Naming")
struct NamingTests {
    static let propertyCases: [(String, String, String?)] = [
        ("created_at", "var createdAt: String", #"case createdAt = "created_at""#),
        ("X-Request-ID", "var xRequestID: String", #"case xRequestID = "X-Request-ID""#),
        ("URLPath", "var urlPath: String", #"case urlPath = "URLPath""#),
        ("2fa", "var value2fa: String", #"case value2fa = "2fa""#),
        ("self", "var selfValue: String", #"case selfValue = "self""#),
        ("class", "var `class`: String", nil),
        ("$ref", "var ref: String", #"case ref = "$ref""#),
    ]

    /// Generates a one-schema document whose object has the property `wire`, and returns the model's source.
    static func model(property wire: String, schemaName: String = "Thing") throws -> String {
        let yaml = """
            openapi: 3.1.0
            info: {title: Names, version: '1'}
            paths: {}
            components:
              schemas:
                '\(schemaName)':
                  type: object
                  required: ['\(wire)']
                  properties:
                    '\(wire)': {type: string}
            """
        let result = ServiceGenerator(document: try DocumentLoader.load(text: yaml), familyName: "Names").generate()
        return try #require(result.files.first { $0.path.hasPrefix("Models/") }).contents
    }

    @Test(
        "A wire name becomes a valid Swift name and keeps its wire name in CodingKeys",
        arguments: Self.propertyCases
    )
    func propertyNames(wire: String, declaration: String, codingKey: String?) throws {
        let source = try Self.model(property: wire)
        #expect(source.contains(declaration))
        if let codingKey {
            #expect(source.contains(codingKey))
        } else {
            #expect(!source.contains("CodingKeys"), "the Swift name is the wire name")
        }
    }

    @Test(
        "A schema name becomes a type name that shadows nothing",
        arguments: [
            ("Error", "struct ErrorModel:"), ("pet-owner", "struct PetOwner:"), ("Data", "struct DataModel:"),
            ("3d_model", "struct Type3dModel:"),
        ]
    )
    func typeNames(schema: String, declaration: String) throws {
        #expect(try Self.model(property: "a", schemaName: schema).contains(declaration))
    }

    @Test(
        "Integer enum cases are named by x-enum-varnames when it names every value, else from the values",
        arguments: [
            ("[-2, 0, 5]", "", ["case minus2", "case value0", "case value5", "case -2: self = .minus2"]),
            ("[1, 2]", "x-enum-varnames: [low, high]", ["case low", "case high", "case 2: self = .high"]),
            ("[1, 2]", "x-enum-varnames: [low]", ["case value1", "case value2"]),
            ("[1, 1, 7]", "", ["case value1\n    case value7\n"]),
        ]
    )
    func integerEnumCases(values: String, names: String, expected: [String]) throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: Names, version: '1'}
            paths: {}
            components:
              schemas:
                Level:
                  type: integer
                  enum: \(values)
                  \(names)
            """
        let result = ServiceGenerator(document: try DocumentLoader.load(text: yaml), familyName: "Names").generate()
        let source = try #require(result.files.first { $0.path == "Models/Level.swift" }).contents
        #expect(source.contains("enum Level: RawRepresentable,"))
        #expect(source.contains("    case unknown(Int)\n"))
        for line in expected { #expect(source.contains(line), "\(source)") }
    }
}
