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

        /// A sentence for logs; never holds key material or a passphrase.
        public var description: String {
            switch self {
            case .unsupported(let transport, let feature):
                "\(transport) cannot enforce \(feature) on this platform"
            case .invalidCertificate(let reason):
                "invalid certificate: \(reason)"
            case .invalidClientIdentity(let reason):
                "invalid client identity: \(reason)"
            }
        }
    }
}
