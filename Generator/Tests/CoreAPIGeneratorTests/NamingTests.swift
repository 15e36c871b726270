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
}
