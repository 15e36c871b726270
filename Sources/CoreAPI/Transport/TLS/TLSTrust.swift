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
/// | ``Server/publicKeys(_:)`` | yes, any key of the chain | refused | yes, the server's own key |
/// | ``Server/publicKeySHA256(_:roots:)`` | yes, any key of the chain | refused | yes, the server's own key |
/// | ``clientIdentity`` | yes | refused | yes |
///
/// FoundationNetworking on Linux delivers no server-trust or client-certificate challenge to its
/// delegate and reads neither `SSL_CERT_FILE` nor any other setting for them, so the URLSession
/// transport cannot honour any of these there; use the AsyncHTTPClient transport on Linux.
///
/// AsyncHTTPClient builds its TLS handler itself and lets no verification hook into it, so the
/// AsyncHTTPClient transport checks public-key pins on each new connection once its handshake is done
/// (the chain and the host name are verified by then), against the key of the server's own
/// certificate — the only one SwiftNIO SSL shows there. To pin an authority's key on Linux, trust the
/// authority itself with ``Server/certificates(_:)``. A connection whose key is not pinned is closed
/// before any request is written on it, and the calls waiting for it end at once with a transport
/// failure of kind ``ApiError/TransportFailure/Kind/tls`` whose cause is
/// ``TLSTrust/Failure/pinMismatch(host:)``. On Apple platforms the challenge is refused instead, and the
/// call ends as URLSession reports a refused server trust.
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
        /// The platform's validation, and then the server's key must be one of `pins`: base64 SHA-256
        /// digests of a SubjectPublicKeyInfo, RFC 7469's `pin-sha256` — what
        /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der |
        /// openssl dgst -sha256 -binary | base64` prints. Give a backup pin too: the digest of a key kept
        /// aside for the next certificate, so that a renewal with a new key does not lock the clients out.
        ///
        /// With `roots`, only chains that end in one of them are trusted, as with ``certificates(_:)``,
        /// and the pins are checked on top: a private authority and the keys of its servers.
        case publicKeySHA256(_ pins: [String], roots: [TLSTrust.Certificate] = [])
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
        case .publicKeys, .publicKeySHA256: parts.append("public-key pinning")
        }
        if clientIdentity != nil {
            parts.append("a client certificate")
        }
        return parts.joined(separator: " and ")
    }
}
