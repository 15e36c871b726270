import CoreAPI
import Foundation

/// One run of `Fixtures/reset_server.py`: a server that cuts the first upload under a name arriving on a
/// reused connection 64 KiB into its body, and checks every other body byte by byte. It exits when its
/// standard input closes: at ``stop()`` or when this process ends.
final class ResetFixtureServer: Sendable {
    /// How the server cuts the upload.
    enum Cut: String, Sendable, CaseIterable, CustomStringConvertible {
        /// The connection is reset (`SO_LINGER` 0) once 64 KiB of the body have arrived.
        case reset
        /// The server closes its side (FIN) once 64 KiB of the body have arrived, and drops the rest.
        case close

        var description: String { rawValue }
    }

    /// One upload the server saw under a name.
    struct Entry: Decodable, Sendable, CustomStringConvertible {
        /// `reset` or `closed` (cut), `whole`, `corrupt`, `mismatch` or `partial`.
        let outcome: String
        /// The number of the request on its connection (1 for the first).
        let request: Int
        /// The body bytes that arrived.
        let received: Int
        /// The first byte that differed from what the cut request delivered (`mismatch`).
        let offset: Int?

        var description: String {
            "\(outcome) (request \(request) of its connection, \(received) bytes\(offset.map { ", from \($0)" } ?? ""))"
        }
    }

    let port: Int
    /// The script's process.
    private let child: PythonFixtureProcess

    /// Starts a server.
    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/reset_server.py")
        child = try PythonFixtureProcess(script: script)
        port = try child.port(labelled: "PORT")
    }

    /// The base URL, `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A host provider whose key `reset` names this server.
    var hosts: DictionaryHostProvider { ["reset": baseURL] }

    /// The uploads the server saw under `name`, in the order they ended.
    func log(name: String) throws -> [Entry] {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/log?name=\(name)")!)
        return try JSONDecoder().decode([Entry].self, from: data)
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? child.input.fileHandleForWriting.close()
        child.process.waitUntilExit()
    }
}
