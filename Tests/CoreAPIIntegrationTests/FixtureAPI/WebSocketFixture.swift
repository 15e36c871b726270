import CoreAPI
import Foundation

/// The loopback WebSocket server (`Fixtures/websocket_server.py`), started once per test process.
///
/// It needs the `websockets` package from PyPI (``PythonPackages/websockets``). Like the HTTP fixture it
/// exits when its standard input closes, so it never outlives the tests.
final class WebSocketFixture: Sendable {
    let port: Int
    /// The script's process, which ends with this one.
    private let child: PythonFixtureProcess

    private static let started: Result<WebSocketFixture, any Error> = Result { try WebSocketFixture() }

    /// The shared server, started (its package installed first when missing) on a thread of its own: pip's
    /// run and the wait for the script's port block, which on a thread of the tests' cooperative pool would
    /// hold back every other test's tasks.
    static func shared() async throws -> WebSocketFixture {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: started) }.start()
        }
    }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/websocket_server.py")
        let packages = try PythonPackages.websockets.get()
        let child = try PythonFixtureProcess(script: script, environment: ["PYTHONPATH": packages.path])
        port = try child.port(labelled: "PORT")
        self.child = child
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
