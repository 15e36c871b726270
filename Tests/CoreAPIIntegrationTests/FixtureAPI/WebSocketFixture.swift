import CoreAPI
import Foundation

/// The loopback WebSocket server (`Fixtures/websocket_server.py`), started once per test process.
///
/// It needs the `websockets` package from PyPI, which it installs on first use into
/// `.build/test-python` of the repository (pinned, with pip, never into the system). Like the HTTP
/// fixture it exits when its standard input closes, so it never outlives the tests.
final class WebSocketFixture: Sendable {
    /// The pinned version of the `websockets` package.
    static let packageVersion = "15.0.1"

    /// pip could not install the package; its output.
    struct InstallFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "pip could not install websockets: \(output)" }
    }

    let port: Int
    /// The script's process, which ends with this one.
    private let child: PythonFixtureProcess

    private static let started: Result<WebSocketFixture, any Error> = Result { try WebSocketFixture() }

    /// The shared server.
    static func shared() throws -> WebSocketFixture {
        try started.get()
    }

    private init() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
        let packages = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-python/websockets-\(Self.packageVersion)")
        try Self.install(into: packages)
        let child = try PythonFixtureProcess(
            script: fixtures.appendingPathComponent("websocket_server.py"),
            environment: ["PYTHONPATH": packages.path]
        )
        port = try child.port(labelled: "PORT")
        self.child = child
    }

    /// Installs the pinned `websockets` into `folder` unless it is there.
    private static func install(into folder: URL) throws {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("websockets/__init__.py").path) {
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-warn-script-location",
            "--target", folder.path, "websockets==\(packageVersion)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw PythonFixtureProcess.NoPython()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw InstallFailed(output: text) }
    }

    /// A host provider whose key `ws` names this server over `http` (the session makes it `ws`).
    var hosts: DictionaryHostProvider { ["ws": "http://127.0.0.1:\(port)"] }

    /// The close codes and reasons the server saw on the connections of `name`, in order.
    func closures(name: String) throws -> [WebSocket.Closure] {
        let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/stats?name=\(name)")!)
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.map {
            WebSocket.Closure(
                code: WebSocket.CloseCode(rawValue: UInt16($0["code"] as? Int ?? 0)),
                reason: $0["reason"] as? String ?? ""
            )
        }
    }
}
