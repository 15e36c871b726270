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
    enum StartError: Error, CustomStringConvertible {
        case noPython
        case noPort(String)

        var description: String {
            switch self {
            case .noPython: "python3 is required for the loopback fixture server; run .ci/run or install python3"
            case .noPort(let output): "the fixture server did not report a port: \(output)"
            }
        }
    }

    let port: Int
    /// The second port, reached as `localhost` (another origin than `baseURL`).
    let port2: Int
    /// A TLS listener with a self-signed certificate no client trusts.
    let port3: Int
    private let process: Process
    private let input: Pipe

    private static let started: Result<FixtureServer, any Error> = Result { try FixtureServer() }

    /// The shared server.
    static func shared() throws -> FixtureServer {
        try started.get()
    }

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fixture_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
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
        let line2 = Self.readLine(from: output.fileHandleForReading)
        guard line2.hasPrefix("PORT2 "), let port2 = Int(line2.dropFirst(6)) else {
            process.terminate()
            throw StartError.noPort(line2)
        }
        let line3 = Self.readLine(from: output.fileHandleForReading)
        guard line3.hasPrefix("PORT3 "), let port3 = Int(line3.dropFirst(6)) else {
            process.terminate()
            throw StartError.noPort(line3)
        }
        self.port = port
        self.port2 = port2
        self.port3 = port3
        self.process = process
        self.input = input
    }

    private static func readLine(from handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
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
