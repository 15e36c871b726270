import Foundation

/// One run of `Fixtures/tls_server.py`: HTTPS on `127.0.0.1` with a given certificate, optionally
/// requiring a client certificate. It exits when its standard input closes: at ``stop()`` or when this
/// process ends.
final class TLSFixtureServer: Sendable {
    let port: Int
    /// The script's process.
    private let child: PythonFixtureProcess

    /// Starts a server.
    /// - Parameters:
    ///   - certificate: The PEM file of the server's certificate.
    ///   - key: The PEM file of its key.
    ///   - clientAuthority: The PEM file of the CA client certificates must come from, or `nil` for no
    ///     client certificate.
    ///   - onlyOldTLS: Whether the server offers only TLS 1.0 and 1.1, which clients must refuse.
    init(certificate: String, key: String, clientAuthority: String? = nil, onlyOldTLS: Bool = false) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tls_server.py")
        child = try PythonFixtureProcess(
            script: script,
            arguments: (onlyOldTLS ? ["--max-tls=1.1"] : []) + [certificate, key] + (clientAuthority.map { [$0] } ?? [])
        )
        port = try child.port(labelled: "PORT")
    }

    /// The base URL, `https://127.0.0.1:<port>`.
    var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? child.input.fileHandleForWriting.close()
        child.process.waitUntilExit()
    }
}
