import CoreAPIGenerator
import Foundation
import Testing

/// A document of `version` whose one operation answers with `schema` (a YAML flow mapping), with `info`.
func document(_ version: String, info: String = "{title: Repairs, version: '1'}", schema: String) -> String {
    """
    openapi: \(version)
    info: \(info)
    paths:
      /a:
        get:
          operationId: getA
          responses:
            '200':
              description: A.
              content:
                application/json:
                  schema: \(schema)
    """
}

@Suite("Departures from the specification that published documents have")
struct DocumentRepairTests {
    @Test(
        "Each is mended and reported with its place, and the document is read",
        arguments: [
            (
                document("3.1.0", schema: "{type: number, minimum: 0, exclusiveMinimum: true}"),
                "\(answerLocation)/exclusiveMinimum: `exclusiveMinimum: true` is not of this document's OpenAPI"
                    + " version; left out"
            ),
            (
                document("3.0.3", schema: "{type: number, maximum: 1, exclusiveMaximum: 1}"),
                "\(answerLocation)/exclusiveMaximum: `exclusiveMaximum: 1` is not of this document's OpenAPI"
                    + " version; left out"
            ),
            (
                document("3.0.3", schema: "{type: integer, maximum: 18446744073709552000}"),
                "\(answerLocation)/maximum: 18446744073709552000 is outside 64-bit integers;"
                    + " 9223372036854775807 is used"
            ),
            (
                document("3.1.0", schema: "{type: string, description: {$ref: '#/components/schemas/X'}}"),
                "\(answerLocation)/description: a description that is not text is left out"
            ),
            (
                document("3.1.0", info: "{title: Repairs}", schema: "{type: string}"),
                "#/info: the document has no version; an empty one is used"
            ),
            (
                document("3.0.3", info: "{title: Repairs, version: '1', termsOfService: Fair use}", schema: "{}"),
                "#/info/termsOfService: `Fair use` is not a URL; left out"
            ),
        ]
    )
    func mended(text: String, diagnostic: String) throws {
        try withFiles(["main.yaml": text]) { folder in
            var diagnostics: [Diagnostic] = []
            let loaded = try DocumentLoader.load(
                contentsOf: folder.appendingPathComponent("main.yaml"),
                diagnostics: &diagnostics
            )
            #expect(diagnostics.map(\.description) == [diagnostic])
            #expect(loaded.paths.count == 1)
            #expect(throws: DocumentLoader.Failure.self) { try DocumentLoader.load(text: text) }
        }
    }

    @Test("A property named like a keyword is a property, not a keyword to mend")
    func propertiesAreNames() throws {
        let schema = "{type: object, properties: {description: {type: string}, maximum: {type: integer}}}"
        try withFiles(["main.yaml": document("3.1.0", schema: schema)]) { folder in
            var diagnostics: [Diagnostic] = []
            _ = try DocumentLoader.load(
                contentsOf: folder.appendingPathComponent("main.yaml"),
                diagnostics: &diagnostics
            )
            #expect(diagnostics.isEmpty)
        }
    }
}
