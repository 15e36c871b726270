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
        /// - Throws: `unsupported(transport:feature:)` for `publicKeys(_:)` and `publicKeySHA256(_:roots:)`:
        ///   a TLS configuration cannot hold a public-key pin, which the transport checks on each new
        ///   connection (make it with `AsyncHTTPClientTransport.init(trust:maximumConnectionsPerHost:)`);
        ///   `invalidCertificate(_:)` or `invalidClientIdentity(_:)` when one cannot be read.
        public func makeTLSConfiguration() throws(TLSTrust.Failure) -> TLSConfiguration {
            if pinsKeys {
                throw .unsupported(
                    transport: "AsyncHTTPClientTransport",
                    feature: "public-key pinning in a TLS configuration (make the transport with init(trust:))"
                )
            }
            return try makeTLSConfigurationCheckingPinsElsewhere()
        }

        /// Whether `server` pins keys.
        var pinsKeys: Bool {
            switch server {
            case .system, .certificates: false
            case .publicKeys, .publicKeySHA256: true
            }
        }

        /// The TLS configuration of `makeTLSConfiguration()`, which for pinned keys is the platform's
        /// validation: the caller checks the pins on each connection.
        func makeTLSConfigurationCheckingPinsElsewhere() throws(TLSTrust.Failure) -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            switch server {
            case .system, .publicKeys, .publicKeySHA256(_, roots: []):
                break
            case .certificates(let certificates), .publicKeySHA256(_, let certificates):
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
