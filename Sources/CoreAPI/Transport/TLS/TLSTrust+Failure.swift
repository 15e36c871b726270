extension TLSTrust {
    /// Why a transport cannot be made with a ``TLSTrust``.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The transport cannot enforce what the configuration asks for on this platform.
        case unsupported(transport: String, feature: String)
        /// A certificate could not be read.
        case invalidCertificate(String)
        /// The client identity could not be read (a wrong passphrase, or not a PKCS #12 archive with a
        /// certificate and its key).
        case invalidClientIdentity(String)
        /// A public-key pin is not the base64 of a SHA-256 digest, or there is none.
        case invalidPin(String)
        /// The server at `host` showed a certificate chain that is valid but whose key is not pinned
        /// (``TLSTrust/Server/publicKeys(_:)``, ``TLSTrust/Server/publicKeySHA256(_:roots:)``): the cause of the
        /// transport failure the call ends with.
        case pinMismatch(host: String)

        /// A sentence for logs; never holds key material or a passphrase.
        public var description: String {
            switch self {
            case .unsupported(let transport, let feature):
                "\(transport) cannot enforce \(feature) on this platform"
            case .invalidCertificate(let reason):
                "invalid certificate: \(reason)"
            case .invalidClientIdentity(let reason):
                "invalid client identity: \(reason)"
            case .invalidPin(let reason):
                "invalid public-key pin: \(reason)"
            case .pinMismatch(let host):
                "the key of \(host)'s certificate is not pinned"
            }
        }
    }
}
