import CoreAPIGenerator
import Foundation
import Testing

/// The documents in Tests/Documents, each with the family name its golden module in Tests/Goldens has: the
/// document's file name without its extension.
let goldenDocuments: [(document: String, family: String)] = {
    let names =
        (try? FileManager.default.contentsOfDirectory(atPath: testsFolder.appendingPathComponent("Documents").path))
        ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
        .map { ($0, String($0.prefix(upTo: $0.lastIndex(of: ".")!))) }
}()

let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

/// The files below `folder`, by path relative to it.
func filesBelow(_ folder: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
        guard url.pathExtension == "swift" else { continue }
        let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        result[relative] = try String(contentsOf: url, encoding: .utf8)
    }
    return result
}

@Suite("Golden modules")
struct GoldenTests {
    @Test("Each document regenerates its golden module byte for byte", arguments: goldenDocuments)
    func regeneratesGolden(document: String, family: String) throws {
        let url = testsFolder.appendingPathComponent("Documents/\(document)")
        let result = ServiceGenerator(document: try DocumentLoader.load(contentsOf: url), familyName: family).generate()
        let generated = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
        let golden = try filesBelow(testsFolder.appendingPathComponent("Goldens/\(family)"))
        #expect(generated.keys.sorted() == golden.keys.sorted())
        for (path, contents) in generated {
            #expect(golden[path] == contents, "\(family)/\(path) differs from its golden")
        }
    }

    @Test("Generating twice gives the same bytes")
    func deterministic() throws {
        let url = testsFolder.appendingPathComponent("Documents/Features.yaml")
        let first = ServiceGenerator(document: try DocumentLoader.load(contentsOf: url), familyName: "F").generate()
        let second = ServiceGenerator(document: try DocumentLoader.load(contentsOf: url), familyName: "F").generate()
        #expect(first.files == second.files)
    }

    @Test("Generated lines fit the project's line length of 120", arguments: goldenDocuments)
    func lineLength(document: String, family: String) throws {
        let url = testsFolder.appendingPathComponent("Documents/\(document)")
        let result = ServiceGenerator(document: try DocumentLoader.load(contentsOf: url), familyName: family).generate()
        for file in result.files {
            let long = file.contents.split(separator: "\n").filter { $0.count > 120 }
            #expect(long.isEmpty, "\(family)/\(file.path)")
        }
    }
}
