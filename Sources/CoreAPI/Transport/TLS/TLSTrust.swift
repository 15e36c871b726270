/// Which servers a transport trusts over TLS, and which certificate it presents as a client.
///
/// The default, ``system``, is the platform's own validation: the system's trusted roots, the host
/// name, the validity dates. Every other choice adds to it and is never weaker: the host name and the
/// dates are always checked, and there is no way to turn validation off.
///
/// Transports differ in what they can enforce, and refuse what they cannot when they are made
/// (``TLSTrust/Failure/unsupported(transport:feature:)``), never silently:
///
/// | | URLSession, Apple platforms | URLSession, Linux | AsyncHTTPClient |
/// |---|---|---|---|
/// | ``Server/certificates(_:)`` | yes | refused | yes |
/// | ``Server/publicKeys(_:)`` | yes | refused | refused |
/// | ``clientIdentity`` | yes | refused | yes |
///
/// FoundationNetworking on Linux delivers no server-trust or client-certificate challenge to its
/// delegate and reads neither `SSL_CERT_FILE` nor any other setting for them, so the URLSession
/// transport cannot honour any of these there; use the AsyncHTTPClient transport on Linux.
/// AsyncHTTPClient's TLS configuration takes trusted roots and a client identity but no hook to
/// inspect the server's chain, so it cannot pin a public key.
public struct TLSTrust: Sendable {
    /// How the server's certificate chain is judged.
    public enum Server: Sendable, Hashable {
        /// The platform's validation against the system's trusted roots.
        case system
        /// Only chains that end in one of these certificates are trusted, the system's roots are not:
        /// a private certificate authority, or a server's own self-signed certificate. The host name
        /// and the dates are still checked.
        case certificates([TLSTrust.Certificate])
        /// The platform's validation, and then one certificate of the chain must carry the public key
        /// of one of these certificates (a pin that survives the renewal of a certificate with the same
        /// key).
        case publicKeys([TLSTrust.Certificate])
    }

    /// The platform's own validation and no client certificate.
    public static let system = TLSTrust()

    /// How the server's certificate chain is judged.
    public var server: Server
    /// The certificate and key presented when a server asks for one (mutual TLS), or `nil`.
    public var clientIdentity: TLSTrust.ClientIdentity?

    /// Creates a trust configuration.
    /// - Parameters:
    ///   - server: How the server's certificate chain is judged; ``Server/system`` by default.
    ///   - clientIdentity: The client certificate for mutual TLS, or `nil`.
    public init(server: Server = .system, clientIdentity: TLSTrust.ClientIdentity? = nil) {
        self.server = server
        self.clientIdentity = clientIdentity
    }

    /// Whether this is the platform's own validation with no client certificate.
    public var isSystemDefault: Bool {
        server == .system && clientIdentity == nil
    }

    /// What of this configuration goes beyond the platform's default, in words, for errors.
    var customisations: String {
        var parts: [String] = []
        switch server {
        case .system: break
        case .certificates: parts.append("trusted certificates")
        case .publicKeys: parts.append("public-key pinning")
        }
        if clientIdentity != nil {
            parts.append("a client certificate")
        }
        return parts.joined(separator: " and ")
    }
}
