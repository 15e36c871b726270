import CoreAPIGenerator
import Foundation

// coreapi-generate <document> <output-folder> [--name <Family>] [--access public|internal]
// Writes a CoreAPI service module from an OpenAPI 3.0 or 3.1 document (YAML or JSON). What it cannot express
// is listed on standard error with its place in the document; it exits non-zero only when the document
// cannot be read. A `$ref` to another local file is followed relative to the file that holds it; a remote one,
// or one whose file or place cannot be read, is listed as not loaded, with the place of the reference.

let usage =
    "usage: coreapi-generate <document.yaml|json> <output-folder> [--name <FamilyName>] [--access public|internal]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
var familyName: String?
if let index = arguments.firstIndex(of: "--name"), index + 1 < arguments.count {
    familyName = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
// `public` makes what a consumer of the module uses public, so the module can be a library target; without it,
// the document's `x-coreapi-access`, else internal.
var access: ServiceGenerator.Access?
if let index = arguments.firstIndex(of: "--access") {
    guard index + 1 < arguments.count, let value = ServiceGenerator.Access(rawValue: arguments[index + 1]) else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(64)
    }
    access = value
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
let input = URL(fileURLWithPath: arguments[0])
let output = URL(fileURLWithPath: arguments[1])
do {
    var loading: [Diagnostic] = []
    let document = try DocumentLoader.load(contentsOf: input, diagnostics: &loading)
    for diagnostic in loading {
        FileHandle.standardError.write(Data("not loaded: \(diagnostic)\n".utf8))
    }
    let name = familyName ?? document.info.title
    let result = ServiceGenerator(document: document, familyName: name, access: access).generate()
    try ServiceGenerator.write(result, to: output)
    for diagnostic in result.diagnostics {
        FileHandle.standardError.write(Data("not generated: \(diagnostic)\n".utf8))
    }
    print("wrote \(result.files.count) files to \(output.path)")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
