import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct TLSTrustTests {
    /// Two made-up DER bodies, base64 in PEM blocks.
    private static let first = Data([0x30, 0x03, 0x02, 0x01, 0x01])
    private static let second = Data([0x30, 0x03, 0x02, 0x01, 0x02])

    private static func block(_ der: Data) -> String {
        "-----BEGIN CERTIFICATE-----\n\(der.base64EncodedString(options: .lineLength64Characters))\n-----END CERTIFICATE-----\n"
    }

    @Test func everyCertificateOfABundleIsReadInOrder() throws {
        let bundle = "subject=leaf\n" + Self.block(Self.first) + "junk between\n" + Self.block(Self.second)
        let certificates = try TLSTrust.Certificate.all(inPEM: bundle)
        #expect(certificates.map(\.der) == [Self.first, Self.second])
        #expect(try TLSTrust.Certificate(pem: bundle).der == Self.first)
    }

    @Test(arguments: [
        ("no block at all", "no CERTIFICATE block in the PEM text"),
        ("-----BEGIN CERTIFICATE-----\nMAMCAQE=\n", "certificate 1 has no END line"),
        ("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----", "certificate 1 is not valid base64"),
    ])
    func unreadablePEMIsATypedError(pem: String, reason: String) {
        #expect(throws: TLSTrust.Failure.invalidCertificate(reason)) {
            try TLSTrust.Certificate(pem: pem)
        }
    }

    @Test func theClientIdentityNeverShowsItsPassphraseOrArchive() {
        let identity = TLSTrust.ClientIdentity(pkcs12: Data("archive-bytes".utf8), passphrase: "hunter2")
        var dumped = ""
        dump(TLSTrust(clientIdentity: identity), to: &dumped)
        let texts = [
            identity.description, String(describing: identity), String(reflecting: TLSTrust(clientIdentity: identity)),
            dumped,
        ]
        for text in texts {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains("archive-bytes"))
        }
        #expect(identity.description == "TLSTrust.ClientIdentity(pkcs12: 13 bytes, passphrase: <redacted>)")
    }

    @Test func onlyTheSystemDefaultIsTheDefault() {
        let certificate = TLSTrust.Certificate(der: Self.first)
        #expect(TLSTrust.system.isSystemDefault)
        #expect(!TLSTrust(server: .certificates([certificate])).isSystemDefault)
        #expect(!TLSTrust(server: .publicKeys([certificate])).isSystemDefault)
        #expect(!TLSTrust(clientIdentity: TLSTrust.ClientIdentity(pkcs12: Data(), passphrase: "")).isSystemDefault)
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking hands no TLS challenge to its delegate: the URLSession transport refuses
        /// every trust option when it is made, never ignoring one.
        @Test(arguments: [
            (
                TLSTrust(server: .certificates([TLSTrust.Certificate(der: first)])),
                "trusted certificates"
            ),
            (TLSTrust(server: .publicKeys([TLSTrust.Certificate(der: first)])), "public-key pinning"),
            (TLSTrust(server: .publicKeySHA256([String(repeating: "A", count: 43) + "="])), "public-key pinning"),
            (
                TLSTrust(clientIdentity: TLSTrust.ClientIdentity(pkcs12: Data(), passphrase: "x")),
                "a client certificate"
            ),
        ])
        func theURLSessionTransportRefusesTrustOptionsOnLinux(trust: TLSTrust, feature: String) throws {
            let expected = TLSTrust.Failure.unsupported(
                transport: "URLSessionTransport",
                feature: "\(feature) (FoundationNetworking hands no TLS challenge to its delegate)"
            )
            #expect(throws: expected) { try URLSessionTransport(trust: trust) }
            #expect(throws: expected) {
                try ApiSession(hostProvider: DictionaryHostProvider(["api": "https://127.0.0.1"]), trust: trust)
            }
            #expect(
                expected.description
                    == "URLSessionTransport cannot enforce \(feature) (FoundationNetworking hands no TLS challenge "
                    + "to its delegate) on this platform"
            )
        }

        @Test func theSystemDefaultIsAcceptedEverywhere() throws {
            let session = try ApiSession(
                hostProvider: DictionaryHostProvider(["api": "https://127.0.0.1"]),
                trust: .system
            )
            session.invalidate()
            _ = try URLSessionTransport(trust: .system)
        }
    #endif
}
