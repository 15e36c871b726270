import Foundation

/// The FastAPI app of the generator's end-to-end test (`Generator/Tests/EndToEnd/items_app.py`), served on a
/// loopback port for one test: its items live in memory, so each test starts from none. It needs FastAPI and
/// uvicorn (``PythonPackages/fastAPI``), and exits when this value is released or the test process ends.
final class ItemsAppFixture: Sendable {
    let port: Int
    private let child: PythonFixtureProcess

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Generator/Tests/EndToEnd/items_app.py")
        let packages = try PythonPackages.fastAPI.get()
        let child = try PythonFixtureProcess(
            script: script,
            arguments: ["--exit-with-stdin"],
            environment: ["PYTHONPATH": packages.path]
        )
        port = try child.port(labelled: "port")
        self.child = child
    }

    /// The app's base URL.
    var base: String { "http://127.0.0.1:\(port)" }

    deinit {
        // Closing its standard input ends the app at once.
        try? child.input.fileHandleForWriting.close()
        child.process.waitUntilExit()
    }
}
