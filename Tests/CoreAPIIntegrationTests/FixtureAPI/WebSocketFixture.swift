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

    enum StartError: Error, CustomStringConvertible {
        case noPython
        case installFailed(String)
        case noPort(String)

        var description: String {
            switch self {
            case .noPython: "python3 is required for the WebSocket fixture server"
            case .installFailed(let output): "pip could not install websockets: \(output)"
            case .noPort(let output): "the WebSocket fixture did not report a port: \(output)"
            }
        }
    }

    let port: Int
    private let process: Process
    private let input: Pipe

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", fixtures.appendingPathComponent("websocket_server.py").path]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = packages.path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw StartError.noPython
        }
        let line = Self.readLine(from: output.fileHandleForReading)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw StartError.noPort(line)
        }
        self.port = port
        self.process = process
        self.input = input
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
            throw StartError.noPython
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StartError.installFailed(text) }
    }

    private static func readLine(from handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A host provider whose key `ws` names this server over `http` (the session makes it `ws`).
    var hosts: DictionaryHostProvider { ["ws": "http://127.0.0.1:\(port)"] }

    /// The close codes and reasons the server saw on the connections of `name`, in order.
    func closures(name: String) throws -> [WebSocketClosure] {
        let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/stats?name=\(name)")!)
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.map {
            WebSocketClosure(
                code: WebSocketCloseCode(rawValue: UInt16($0["code"] as? Int ?? 0)),
                reason: $0["reason"] as? String ?? ""
            )
        }
    }
}
