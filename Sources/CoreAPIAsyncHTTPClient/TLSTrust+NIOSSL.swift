#if AsyncHTTPClient
    public import CoreAPI
    public import NIOSSL

    /// How the AsyncHTTPClient transport applies a `TLSTrust`: as a SwiftNIO SSL configuration.
    extension TLSTrust {
        /// The TLS configuration that enforces this trust: TLS 1.2 at least and full verification of the
        /// chain and the host name always; the given certificates as the only trusted roots for
        /// `certificates(_:)`; the client identity's chain and key.
        ///
        /// SwiftNIO SSL verifies a chain up to a trusted root, so a pinned certificate must be the root
        /// of the chain the server shows — a private CA, or a self-signed server certificate — not a
        /// leaf issued by another CA.
        /// - Throws: `unsupported(transport:feature:)` for
        ///   `publicKeys(_:)`: the transport cannot see the server's chain (the
        ///   client's TLS configuration takes roots, not a verification hook);
        ///   `invalidCertificate(_:)` or `invalidClientIdentity(_:)`
        ///   when one cannot be read.
        public func makeTLSConfiguration() throws(TLSTrust.Failure) -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            switch server {
            case .system:
                break
            case .certificates(let certificates):
                guard !certificates.isEmpty else {
                    throw .invalidCertificate("no certificate to trust")
                }
                var roots: [NIOSSLCertificate] = []
                for (index, certificate) in certificates.enumerated() {
                    do {
                        roots.append(try NIOSSLCertificate(bytes: Array(certificate.der), format: .der))
                    } catch {
                        throw .invalidCertificate("certificate \(index + 1) is not a DER X.509 certificate")
                    }
                }
                configuration.trustRoots = .certificates(roots)
            case .publicKeys:
                throw .unsupported(
                    transport: "AsyncHTTPClientTransport",
                    feature: "public-key pinning (its TLS configuration takes trusted roots, not a chain check)"
                )
            }
            if let identity = clientIdentity {
                let bundle: NIOSSLPKCS12Bundle
                do {
                    bundle = try NIOSSLPKCS12Bundle(
                        buffer: Array(identity.pkcs12),
                        passphrase: Array(identity.passphrase.utf8)
                    )
                } catch {
                    throw .invalidClientIdentity("the PKCS #12 archive could not be opened")
                }
                configuration.certificateChain = bundle.certificateChain.map { .certificate($0) }
                configuration.privateKey = .privateKey(bundle.privateKey)
            }
            return configuration
        }
    }
#endif
