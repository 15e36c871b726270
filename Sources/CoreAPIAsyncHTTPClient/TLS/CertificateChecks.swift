#if AsyncHTTPClient
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// Whether the transport checks the certificates of the servers it connects to.
        ///
        /// URLSession's transport has no such choice: it always checks them.
        public enum CertificateChecks: Sendable, Hashable {
            /// The server's certificate chain and host name are always checked: a TLS configuration whose
            /// `certificateVerification` is `.none` or `.noHostnameVerification` is raised to
            /// `.fullVerification`. The default.
            case enforced
            /// **Insecure.** The TLS configuration's `certificateVerification` is used as it is, `.none`
            /// included, so any server is accepted — and so is anyone between the client and the server.
            /// Only for a test server whose certificate cannot be trusted otherwise; a private authority
            /// or a self-signed certificate is better trusted with `TLSTrust.certificates(_:)`, which
            /// keeps every check. TLS 1.2 stays the minimum either way.
            case insecureAsConfigured
        }

        /// `configuration` with TLS 1.2 at least and, unless `checks` says otherwise, full certificate
        /// verification.
        static func securing(_ configuration: TLSConfiguration, _ checks: CertificateChecks) -> TLSConfiguration {
            var configuration = configuration
            if rank(configuration.minimumTLSVersion) < rank(.tlsv12) {
                configuration.minimumTLSVersion = .tlsv12
            }
            if checks == .enforced {
                configuration.certificateVerification = .fullVerification
            }
            return configuration
        }

        /// The order of TLS versions, which NIOSSL's `TLSVersion` does not define.
        private static func rank(_ version: TLSVersion) -> Int {
            switch version {
            case .tlsv1: 0
            case .tlsv11: 1
            case .tlsv12: 2
            case .tlsv13: 3
            }
        }
    }
#endif
