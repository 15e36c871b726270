import CoreAPIGenerator
import Foundation
import Testing

/// A folder of its own holding `files` (path below it → contents), removed by `body`'s end.
func withFiles<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("references-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, contents) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }
    return try body(folder)
}

/// A 3.0 document whose one operation answers with `schema` (a YAML flow mapping).
func documentAnswering(_ schema: String) -> String {
    """
    openapi: 3.0.3
    info: {title: Refs, version: '1'}
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

let answerLocation = "#/paths/~1a/get/responses/200/content/application~1json/schema"

@Suite("References to other files")
struct FileReferenceTests {
    @Test(
        "A reference that cannot be followed is reported where it is, and left for the generator to report",
        arguments: [
            (
                ["main.yaml": documentAnswering("{$ref: 'missing.yaml#/components/schemas/Gone'}")],
                [
                    "\(answerLocation): reference `missing.yaml#/components/schemas/Gone`: there is no file"
                        + " missing.yaml; the reference is left as it is"
                ],
                "\(answerLocation): reference missing.yaml#/components/schemas/Gone is not a schema of this"
                    + " document; JSONValue used"
            ),
            (
                [
                    "main.yaml": documentAnswering("{$ref: 'sub/other.yaml#/components/schemas/Nope'}"),
                    "sub/other.yaml": "components: {schemas: {Here: {type: string}}}",
                ],
                [
                    "\(answerLocation): reference `sub/other.yaml#/components/schemas/Nope`: sub/other.yaml has"
                        + " nothing at #/components/schemas/Nope; the reference is left as it is"
                ],
                "\(answerLocation): reference sub/other.yaml#/components/schemas/Nope is not a schema of this"
                    + " document; JSONValue used"
            ),
            (
                [
                    "main.yaml": documentAnswering("{$ref: 'sub/item.yaml'}"),
                    "sub/item.yaml": "type: object\nproperties:\n  part: {$ref: 'gone.json'}\n",
                ],
                [
                    "sub/item.yaml#/properties/part: reference `gone.json`: there is no file sub/gone.json; the"
                        + " reference is left as it is"
                ],
                "#/components/schemas/item/properties/part: reference sub/gone.json is not a schema of this"
                    + " document; JSONValue used"
            ),
            (
                ["main.yaml": documentAnswering("{$ref: 'https://example.com/pets.yaml#/Pet'}")],
                [
                    "\(answerLocation): reference `https://example.com/pets.yaml#/Pet`: a remote reference is not"
                        + " fetched; the reference is left as it is"
                ],
                "\(answerLocation): reference https://example.com/pets.yaml#/Pet is not a schema of this document;"
                    + " JSONValue used"
            ),
        ]
    )
    func unresolved(files: [String: String], loading: [String], generating: String) throws {
        try withFiles(files) { folder in
            var diagnostics: [Diagnostic] = []
            let document = try DocumentLoader.load(
                contentsOf: folder.appendingPathComponent("main.yaml"),
                diagnostics: &diagnostics
            )
            #expect(diagnostics.map(\.description) == loading)
            let result = ServiceGenerator(document: document, familyName: "Refs").generate()
            // A set: the generator reports a component's unresolved property reference twice today.
            #expect(Set(result.diagnostics.map(\.description)) == [generating])
        }
    }

    @Test("One target written three ways, and files referencing each other in a cycle, give one model each")
    func sameTargetOnce() throws {
        let main = """
            openapi: 3.1.0
            info: {title: Refs, version: '1'}
            paths:
              /a:
                get:
                  operationId: getA
                  responses:
                    '200':
                      description: A.
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              first: {$ref: 'models/node.yaml#/Node'}
                              second: {$ref: './models/node.yaml#/Node'}
                              third: {$ref: 'models/../models/node.yaml#/Node'}
            """
        let node = "Node:\n  type: object\n  properties:\n    next: {$ref: 'edge.json'}\n"
        let edge = #"{"type": "object", "properties": {"to": {"$ref": "node.yaml#/Node"}}}"#
        try withFiles(["main.yaml": main, "models/node.yaml": node, "models/edge.json": edge]) { folder in
            var diagnostics: [Diagnostic] = []
            let document = try DocumentLoader.load(
                contentsOf: folder.appendingPathComponent("main.yaml"),
                diagnostics: &diagnostics
            )
            #expect(diagnostics.isEmpty)
            #expect(document.components.schemas.keys.map(\.rawValue) == ["Node", "edge"])
            let result = ServiceGenerator(document: document, familyName: "Refs").generate()
            #expect(result.diagnostics.isEmpty)
            #expect(
                result.files.map(\.path).filter { $0.hasPrefix("Models/") } == [
                    "Models/Edge.swift", "Models/Node.swift",
                ]
            )
        }
    }

    @Test("A path item referenced within the document is written in place, so its operations are generated")
    func pathItemWithin() throws {
        let main = """
            openapi: 3.1.0
            info: {title: Refs, version: '1'}
            paths:
              /a: {$ref: '#/components/pathItems/A'}
            components:
              pathItems:
                A:
                  get:
                    operationId: getA
                    responses: {'204': {description: Nothing.}}
            """
        try withFiles(["main.yaml": main]) { folder in
            var diagnostics: [Diagnostic] = []
            let document = try DocumentLoader.load(
                contentsOf: folder.appendingPathComponent("main.yaml"),
                diagnostics: &diagnostics
            )
            let result = ServiceGenerator(document: document, familyName: "Refs").generate()
            #expect(diagnostics.isEmpty)
            #expect(result.diagnostics.isEmpty)
            #expect(result.files.map(\.path).contains("Methods/GetA.swift"))
        }
    }

    @Test("A discriminator's mapping to other files selects the schemas brought in from them")
    func discriminatorMapping() throws {
        let main = """
            openapi: 3.0.3
            info: {title: Refs, version: '1'}
            paths:
              /pet:
                get:
                  operationId: getPet
                  responses:
                    '200':
                      description: A pet.
                      content:
                        application/json:
                          schema:
                            oneOf: [{$ref: 'pets/cat.yaml'}, {$ref: 'pets/dog.yaml'}]
                            discriminator:
                              propertyName: kind
                              mapping: {feline: 'pets/cat.yaml', canine: './pets/dog.yaml'}
            """
        let pet = "{type: object, required: [kind], properties: {kind: {type: string}}}"
        try withFiles(["main.yaml": main, "pets/cat.yaml": pet, "pets/dog.yaml": pet]) { folder in
            let document = try DocumentLoader.load(contentsOf: folder.appendingPathComponent("main.yaml"))
            let result = ServiceGenerator(document: document, familyName: "Refs").generate()
            let method = try #require(result.files.first { $0.path == "Methods/GetPet.swift" })
            #expect(method.contents.contains("case \"feline\": self = .cat("))
            #expect(method.contents.contains("case \"canine\": self = .dog("))
        }
    }

    @Test("A file that cannot be followed still gives a module, and the command exits 0 listing it")
    func commandKeepsGoing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: generatorExecutable.path))
        try withFiles(["main.yaml": documentAnswering("{$ref: 'missing.yaml'}")]) { folder in
            let run = try runGenerator([
                folder.appendingPathComponent("main.yaml").path, folder.appendingPathComponent("out").path,
            ])
            #expect(run.status == 0)
            #expect(
                run.errors
                    == "not loaded: \(answerLocation): reference `missing.yaml`: there is no file missing.yaml; the"
                    + " reference is left as it is\nnot generated: \(answerLocation): reference missing.yaml is not"
                    + " a schema of this document; JSONValue used\n"
            )
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/Methods/GetA.swift").path)
            )
        }
    }
}
