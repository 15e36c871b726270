import Foundation

/// A certificate authority, server and client certificates made with `openssl` when a test process first
/// needs them, in a temporary folder: nothing secret is committed, and nothing expires between runs.
///
/// - `ca.pem`: the test CA; `other-ca.pem`: a CA that issued nothing the server shows.
/// - `server.pem` / `server.key`: issued by the test CA for `127.0.0.1` and `localhost`.
/// - `wrong-host.pem` / `wrong-host.key`: issued by the test CA for `example.invalid` only.
/// - `client.pem` / `client.key` / `client.p12`: a client certificate (common name `coreapi-client`) issued
///   by the test CA, and the same as a PKCS #12 archive with the passphrase ``passphrase``.
/// - `backup.pem` / `backup.key`: like `server.pem`, with another key (the key a renewal rotates to).
/// - `expired.pem`: like `server.pem`, with the same key, valid only on 1 January 2020.
/// - `server.spki` / `backup.spki`: the DER SubjectPublicKeyInfo of those keys, and `server.sha256` /
///   `backup.sha256` its SHA-256 digest, as `openssl` writes them (see ``pin(_:)``).
struct TestCertificates: Sendable {
    enum MakeError: Error, CustomStringConvertible {
        case openssl(arguments: [String], output: String)

        var description: String {
            switch self {
            case .openssl(let arguments, let output):
                "openssl \(arguments.joined(separator: " ")) failed (install openssl or run .ci/run): \(output)"
            }
        }
    }

    /// The folder that holds the files.
    let folder: URL
    /// The client archive's passphrase.
    static let passphrase = "client-pass"

    private static let made: Result<TestCertificates, any Error> = Result { try TestCertificates() }

    /// The certificates of this test process.
    static func shared() throws -> TestCertificates {
        try made.get()
    }

    /// The path of one of the files.
    func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// The base64 SHA-256 digest of the SubjectPublicKeyInfo of `server` or `backup`, made by `openssl`.
    func pin(_ name: String) throws -> String {
        try contents("\(name).sha256").base64EncodedString()
    }

    /// The contents of one of the files.
    func contents(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    private init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coreapi-tls-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try makeAuthority("ca", commonName: "CoreAPI Test CA")
        try makeAuthority("other-ca", commonName: "CoreAPI Other CA")
        try issue(
            "server",
            commonName: "127.0.0.1",
            extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
        )
        try issue(
            "wrong-host",
            commonName: "example.invalid",
            extensions: "subjectAltName=DNS:example.invalid\nextendedKeyUsage=serverAuth\n"
        )
        try issue(
            "backup",
            commonName: "127.0.0.1",
            extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
        )
        try issueExpired()
        for name in ["server", "backup"] {
            try openssl("x509", "-in", path("\(name).pem"), "-pubkey", "-noout", "-out", path("\(name).pub"))
            try openssl("pkey", "-pubin", "-in", path("\(name).pub"), "-outform", "der", "-out", path("\(name).spki"))
            try openssl("dgst", "-sha256", "-binary", "-out", path("\(name).sha256"), path("\(name).spki"))
        }
        try issue("client", commonName: "coreapi-client", extensions: "extendedKeyUsage=clientAuth\n")
        try openssl(
            "pkcs12",
            "-export",
            "-in",
            path("client.pem"),
            "-inkey",
            path("client.key"),
            "-certfile",
            path("ca.pem"),
            "-out",
            path("client.p12"),
            "-passout",
            "pass:\(Self.passphrase)"
        )
    }

    private func makeAuthority(_ name: String, commonName: String) throws {
        try openssl(
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            path("\(name).key"),
            "-out",
            path("\(name).pem"),
            "-days",
            "2",
            "-subj",
            "/CN=\(commonName)",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign"
        )
    }

    private func issue(_ name: String, commonName: String, extensions: String) throws {
        try Data(extensions.utf8).write(to: folder.appendingPathComponent("\(name).ext"))
        try openssl(
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            path("\(name).key"),
            "-out",
            path("\(name).csr"),
            "-subj",
            "/CN=\(commonName)"
        )
        try openssl(
            "x509",
            "-req",
            "-in",
            path("\(name).csr"),
            "-CA",
            path("ca.pem"),
            "-CAkey",
            path("ca.key"),
            "-CAcreateserial",
            "-out",
            path("\(name).pem"),
            "-days",
            "2",
            "-extfile",
            path("\(name).ext")
        )
    }

    /// `expired.pem`: the server's request (so its key) signed by the test CA for a day of 2020, which
    /// `openssl x509` cannot date in the past before OpenSSL 3.4: `openssl ca` can.
    private func issueExpired() throws {
        let config = """
            [ca]
            default_ca = issuer
            [issuer]
            database = \(path("index.txt"))
            new_certs_dir = \(folder.path)
            certificate = \(path("ca.pem"))
            private_key = \(path("ca.key"))
            serial = \(path("serial"))
            default_md = sha256
            policy = any
            unique_subject = no
            [any]
            commonName = supplied

            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("issuer.cnf"))
        try Data().write(to: folder.appendingPathComponent("index.txt"))
        try Data("01\n".utf8).write(to: folder.appendingPathComponent("serial"))
        try openssl(
            "ca",
            "-batch",
            "-config",
            path("issuer.cnf"),
            "-in",
            path("server.csr"),
            "-out",
            path("expired.pem"),
            "-startdate",
            "20200101000000Z",
            "-enddate",
            "20200102000000Z",
            "-notext",
            "-extfile",
            path("server.ext")
        )
    }

    private func openssl(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MakeError.openssl(arguments: arguments, output: text)
        }
    }
}
