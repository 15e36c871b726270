import Foundation
import Testing

/// The `coreapi-generate` executable, built beside the test bundle.
let generatorExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("coreapi-generate")

/// Runs the executable with `arguments` and returns its exit status and standard error.
func runGenerator(_ arguments: [String]) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = generatorExecutable
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("coreapi-generate", .enabled(if: FileManager.default.isExecutableFile(atPath: generatorExecutable.path)))
struct CommandTests {
    @Test("Unsupported constructs are listed on standard error, and the module is still written with status 0")
    func reportsAndWrites() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("generate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let document = testsFolder.appendingPathComponent("Documents/CallbackExample.yaml").path
        let run = try runGenerator([document, output.path, "--name", "Streams"])
        #expect(run.status == 0)
        #expect(run.errors == "not generated: #/paths/~1streams/post/callbacks/onData: callbacks are not generated\n")
        let method = try String(
            contentsOf: output.appendingPathComponent("Methods/PostStreams.swift"),
            encoding: .utf8
        )
        #expect(method.contains("struct PostStreams: StreamsMethod {"))
    }

    @Test(
        "An unreadable document or a wrong command line exits non-zero",
        arguments: [
            (["/nonexistent/openapi.yaml", "/tmp/unused"], Int32(1), "error: cannot read /nonexistent/openapi.yaml"),
            ([#filePath, "/tmp/unused"], Int32(1), "error: not YAML or JSON"),
            (["only-one-argument"], Int32(64), "usage: coreapi-generate"),
            (["a.yaml", "out", "--access", "open"], Int32(64), "usage: coreapi-generate"),
            (["a.yaml", "out", "--access"], Int32(64), "usage: coreapi-generate"),
        ]
    )
    func failures(arguments: [String], status: Int32, message: String) throws {
        let run = try runGenerator(arguments)
        #expect(run.status == status)
        #expect(run.errors.hasPrefix(message), "\(run.errors)")
    }

    @Test("--access public makes the module public; --access internal overrides the document's extension")
    func access() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("generate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let features = testsFolder.appendingPathComponent("Documents/Features.yaml").path
        #expect(try runGenerator([features, output.path, "--access", "public", "--name", "Shop"]).status == 0)
        let method = try String(contentsOf: output.appendingPathComponent("Methods/GetSettings.swift"), encoding: .utf8)
        #expect(method.contains("public struct GetSettings: ShopMethod {"))
        #expect(method.contains("    public init(limit: Int = 20, sort: Sort = .asc, xLocale: String = \"en\") {\n"))
        let library = testsFolder.appendingPathComponent("Documents/PublicAccess.yaml").path
        #expect(try runGenerator([library, output.path, "--access", "internal"]).status == 0)
        let book = try String(contentsOf: output.appendingPathComponent("Models/Book.swift"), encoding: .utf8)
        #expect(book.contains("\nstruct Book: Codable"))
        #expect(!book.contains("public "))
    }
}
