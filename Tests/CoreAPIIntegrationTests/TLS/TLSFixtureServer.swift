import Foundation

/// One run of `Fixtures/tls_server.py`: HTTPS on `127.0.0.1` with a given certificate, optionally
/// requiring a client certificate. It exits when its standard input closes: at ``stop()`` or when this
/// process ends.
final class TLSFixtureServer: Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe

    /// Starts a server.
    /// - Parameters:
    ///   - certificate: The PEM file of the server's certificate.
    ///   - key: The PEM file of its key.
    ///   - clientAuthority: The PEM file of the CA client certificates must come from, or `nil` for no
    ///     client certificate.
    init(certificate: String, key: String, clientAuthority: String? = nil) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tls_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, certificate, key] + (clientAuthority.map { [$0] } ?? [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var bytes: [UInt8] = []
        while let chunk = try? output.fileHandleForReading.read(upToCount: 1), let byte = chunk.first,
            byte != UInt8(ascii: "\n")
        {
            bytes.append(byte)
        }
        let line = String(decoding: bytes, as: UTF8.self)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw FixtureServer.StartError.noPort(line)
        }
        self.port = port
        self.process = process
        self.input = input
    }

    /// The base URL, `https://127.0.0.1:<port>`.
    var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
