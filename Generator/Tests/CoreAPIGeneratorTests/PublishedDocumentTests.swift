import CoreAPIGenerator
import Foundation
import Testing

/// Shapes met in large published documents, each generated from a small document of its own.
@Suite("Generator: shapes of published documents")
struct PublishedDocumentTests {
    static func generate(_ yaml: String) throws -> GenerationResult {
        ServiceGenerator(document: try DocumentLoader.load(text: yaml), familyName: "T").generate()
    }

    static func file(_ path: String, of result: GenerationResult) throws -> String {
        try #require(result.files.first { $0.path == path }).contents
    }

    @Test(
        "A required path parameter with a nullable schema is a value of its type, never optional",
        arguments: [
            ("3.1.0", "{anyOf: [{type: integer}, {type: 'null'}]}"),
            ("3.1.0", "{type: [integer, 'null']}"),
            ("3.0.3", "{type: integer, nullable: true}"),
        ]
    )
    func nullablePathParameter(version: String, schema: String) throws {
        let yaml = """
            openapi: \(version)
            info: {title: T, version: '1'}
            paths:
              /items/{n}:
                get:
                  operationId: getItem
                  parameters:
                    - name: n
                      in: path
                      required: true
                      schema: \(schema)
                  responses: {'204': {description: ok}}
            """
        let result = try Self.generate(yaml)
        let method = try Self.file("Methods/GetItem.swift", of: result)
        #expect(method.contains("    @Excluded var n: Int\n"))
        #expect(method.contains("    var path: String { \"/items/\\(n)\" }\n"))
        #expect(result.diagnostics.isEmpty)
    }

    @Test("A path parameter whose schema is a component that is only a nullable choice is of its value's type")
    func nullableComponentPathParameter() throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /items/{n}:
                get:
                  operationId: getItem
                  parameters:
                    - {name: n, in: path, required: true, schema: {$ref: '#/components/schemas/MaybeCount'}}
                  responses: {'204': {description: ok}}
            components:
              schemas:
                MaybeCount: {anyOf: [{type: integer}, {type: 'null'}]}
            """
        let result = try Self.generate(yaml)
        let method = try Self.file("Methods/GetItem.swift", of: result)
        #expect(method.contains("    @Excluded var n: Int\n"))
        #expect(method.contains("    var path: String { \"/items/\\(n)\" }\n"))
        #expect(try Self.file("Models/MaybeCount.swift", of: result).contains("typealias MaybeCount = Int?\n"))
    }

    @Test("A parameter reference to nothing is reported where the parameter is, path-level or the operation's")
    func unresolvableParameterReference() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /items:
                parameters:
                  - $ref: '#/components/parameters/Missing'
                get:
                  operationId: listItems
                  parameters:
                    - {name: q, in: query, schema: {type: string}}
                    - $ref: 'https://example.com/common.yaml#/Limit'
                  responses: {'204': {description: ok}}
            components: {}
            """
        let diagnostics = try Self.generate(yaml).diagnostics.map(\.description)
        #expect(
            diagnostics == [
                "#/paths/~1items/parameters/0: parameter reference #/components/parameters/Missing is not in this"
                    + " document",
                "#/paths/~1items/get/parameters/1: parameter reference https://example.com/common.yaml#/Limit is not"
                    + " in this document",
            ]
        )
    }

    @Test("A construct met twice (a component used by an operation) is reported once, in document order")
    func diagnosticsOnceInDocumentOrder() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /item:
                get:
                  operationId: getItem
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/Item'}
              /other:
                get:
                  operationId: getOther
                  parameters:
                    - {name: X-Ids, in: header, style: form, schema: {type: string}}
                  responses: {'204': {description: ok}}
            components:
              schemas:
                Item:
                  type: object
                  properties:
                    part: {$ref: 'https://example.com/part.yaml'}
                    shape: {not: {type: string}}
            """
        let result = try Self.generate(yaml)
        let expected = [
            "#/paths/~1other/get/parameters/0: parameter `X-Ids`: the `form` style is not generated; parameter not"
                + " generated",
            "#/components/schemas/Item/properties/part: reference https://example.com/part.yaml is not a schema of"
                + " this document; JSONValue used",
            "#/components/schemas/Item/properties/shape: a `not` schema cannot be expressed; JSONValue used",
        ]
        #expect(result.diagnostics.map(\.description) == expected)
        let family = try Self.file("TMethod.swift", of: result)
        #expect(family.components(separatedBy: "properties/part:").count == 2)
    }

    @Test("Properties beside an `allOf` join the composed model, and so does a name they only make required")
    func allOfWithSiblingProperties() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses:
                    200:
                      description: The pet.
                      content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
            components:
              schemas:
                Base: {type: object, required: [id], properties: {id: {type: integer}, tag: {type: string}}}
                Pet:
                  type: object
                  allOf: [{$ref: '#/components/schemas/Base'}]
                  required: [name]
                  properties: {name: {type: string}, age: {type: integer}}
                Tagged:
                  allOf: [{$ref: '#/components/schemas/Base'}]
                  required: [tag]
            """
        let result = try Self.generate(yaml)
        let pet = try Self.file("Models/Pet.swift", of: result)
        #expect(pet.contains("struct Pet: Codable, Hashable, Sendable, JSONApiResponse {\n"))
        for line in ["    var id: Int\n", "    var tag: String?\n", "    var name: String\n", "    var age: Int?\n"] {
            #expect(pet.contains(line), "\(line)")
        }
        // The folded document is decoded as the text would be: `200` is a response code, not a number.
        #expect(try Self.file("Methods/GetPet.swift", of: result).contains("    typealias Response = Pet\n"))
        let tagged = try Self.file("Models/Tagged.swift", of: result)
        #expect(tagged.contains("    var id: Int\n    var tag: String\n"))
        #expect(result.diagnostics.isEmpty)
    }
}
