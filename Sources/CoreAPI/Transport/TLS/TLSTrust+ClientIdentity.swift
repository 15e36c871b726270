public import Foundation

extension TLSTrust {
    /// A client certificate with its private key, for mutual TLS, as a PKCS #12 archive (`.p12`/`.pfx`).
    ///
    /// PKCS #12 is the one format every engine reads: the Security framework on Apple platforms and
    /// OpenSSL-based engines alike. Make one with
    /// `openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -out client.p12`.
    /// Its passphrase is a secret: it is never printed, and the description shows neither it nor the
    /// archive.
    public struct ClientIdentity: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The PKCS #12 archive: the client certificate, its private key and optionally its chain.
        public var pkcs12: Data
        /// The archive's passphrase.
        public var passphrase: String

        /// Creates an identity from a PKCS #12 archive.
        /// - Parameters:
        ///   - pkcs12: The archive's bytes.
        ///   - passphrase: Its passphrase.
        public init(pkcs12: Data, passphrase: String) {
            self.pkcs12 = pkcs12
            self.passphrase = passphrase
        }

        /// A description without the archive or its passphrase.
        public var description: String {
            "TLSTrust.ClientIdentity(pkcs12: \(pkcs12.count) bytes, passphrase: <redacted>)"
        }

        /// A mirror without the archive or its passphrase, so `dump` shows neither.
        public var customMirror: Mirror {
            Mirror(self, children: ["pkcs12": "\(pkcs12.count) bytes", "passphrase": "<redacted>"])
        }
    }
}
