import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback fixture server (`Fixtures/fixture_server.py`), started once per test process.
///
/// The server exits when its standard input closes, which happens when this process ends, so it never
/// outlives the tests. It listens on two ports: `baseURL` (`http://127.0.0.1:<port>`) and `baseURL2`
/// (`http://localhost:<port2>`), a second origin for cross-origin redirects.
final class FixtureServer: Sendable {
    let port: Int
    /// The second port, reached as `localhost` (another origin than `baseURL`).
    let port2: Int
    /// A TLS listener with a self-signed certificate no client trusts.
    let port3: Int
    /// The script's process, which ends with this one.
    private let child: PythonFixtureProcess

    private static let started: Result<FixtureServer, any Error> = Result { try FixtureServer() }

    /// The shared server.
    static func shared() throws -> FixtureServer {
        try started.get()
    }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fixture_server.py")
        let child = try PythonFixtureProcess(script: script)
        port = try child.port(labelled: "PORT")
        port2 = try child.port(labelled: "PORT2")
        port3 = try child.port(labelled: "PORT3")
        self.child = child
    }

    /// The base URL, `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The second origin's base URL, `http://localhost:<port2>`.
    var baseURL2: String { "http://localhost:\(port2)" }

    /// A host provider whose key `fixture` names this server.
    var hosts: DictionaryHostProvider { ["fixture": baseURL] }

    /// How many requests carried `X-Test-Tag: tag`.
    func count(tag: String) throws -> Int {
        let url = URL(string: "\(baseURL)/count?tag=\(tag)")!
        let data = try Data(contentsOf: url)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int]
        return object?["count"] ?? -1
    }

    /// How many `/concurrent/<name>` requests arrived, and the most of them in flight at once.
    func concurrency(name: String) throws -> (hits: Int, mostInFlight: Int) {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/concurrent-stats?name=\(name)")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int]
        return (object?["hits"] ?? -1, object?["max_in_flight"] ?? -1)
    }

    /// How many requests for `path` (without query) arrived, on either port.
    func hits(path: String) throws -> Int {
        let query = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path
        let data = try Data(contentsOf: URL(string: "\(baseURL)/hits?path=\(query)")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["count"] as? Int ?? -1
    }
}
