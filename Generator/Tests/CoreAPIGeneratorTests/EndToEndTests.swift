import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The FastAPI app in Tests/EndToEnd, started on a loopback port for the suite's tests.
final class ItemsServer: Sendable {
    let process: Process
    let port: Int

    /// Whether FastAPI and uvicorn can be imported; `COREAPI_REQUIRE_FASTAPI=1` makes their absence a failure.
    static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment["COREAPI_REQUIRE_FASTAPI"] == "1" { return true }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import fastapi, uvicorn"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", testsFolder.appendingPathComponent("EndToEnd/items_app.py").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        // The app's first line is `port <n>`, printed once its socket is bound.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).dropFirst("port ".count)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ApiError.invalidRequest(.encoding("the items app did not start"))
        }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    deinit {
        // SIGKILL: uvicorn's graceful shutdown would wait for the session's idle keep-alive connections.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The module generated from this document is called for every operation against the running app, over each
/// engine, by CoreAPI's integration tests (Tests/CoreAPIIntegrationTests/GeneratedModules), which build the
/// AsyncHTTPClient transport this package does not.
@Suite("End to end: a module generated from a FastAPI app's document", .enabled(if: ItemsServer.isAvailable))
struct EndToEndTests {
    @Test("The app serves the document the golden module was generated from", .timeLimit(.minutes(1)))
    func servedDocument() async throws {
        let server = try ItemsServer()
        let (served, _) = try await URLSession.shared.data(from: URL(string: server.base + "/openapi.json")!)
        let committed = try Data(contentsOf: testsFolder.appendingPathComponent("Documents/ItemsService.json"))
        let servedObject = try JSONSerialization.jsonObject(with: served) as? NSDictionary
        let committedObject = try JSONSerialization.jsonObject(with: committed) as? NSDictionary
        #expect(servedObject != nil && servedObject == committedObject)
    }
}
