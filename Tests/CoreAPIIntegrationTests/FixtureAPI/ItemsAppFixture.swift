import Foundation

/// The FastAPI app of the generator's end-to-end test (`Generator/Tests/EndToEnd/items_app.py`), served on a
/// loopback port for one test: its items live in memory, so each test starts from none. It needs FastAPI and
/// uvicorn (``PythonPackages/fastAPI``), and exits when this value is released or the test process ends.
final class ItemsAppFixture: Sendable {
    let port: Int
    private let child: PythonFixtureProcess

    /// Installs the packages when they are missing and starts the app, on a thread of its own: pip's run and
    /// the wait for the app's first line block, and a blocked thread of the tests' cooperative pool (two on
    /// this kind of machine) would hold back every other test's tasks, timers included.
    static func start() async throws -> ItemsAppFixture {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try ItemsAppFixture() }) }.start()
        }
    }

    private init() throws {
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
        // Closing its standard input ends the app at once; nothing waits for it here.
        try? child.input.fileHandleForWriting.close()
    }
}
