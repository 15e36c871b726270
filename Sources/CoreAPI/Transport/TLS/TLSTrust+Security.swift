#if canImport(Security)
    import Foundation
    import Security

    /// How the URLSession transport applies a ``TLSTrust`` on Apple platforms, where URLSession hands
    /// server-trust and client-certificate challenges to its delegate.
    extension TLSTrust {
        /// Whether the server trust of a challenge satisfies ``server`` for `host`; the host name and
        /// the dates are checked whatever the choice.
        func accepts(_ trust: SecTrust, host: String) -> Bool {
            guard SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString)) == errSecSuccess else {
                return false
            }
            switch server {
            case .system:
                return SecTrustEvaluateWithError(trust, nil)
            case .certificates(let certificates):
                let anchors = certificates.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
                guard !anchors.isEmpty, anchors.count == certificates.count,
                    SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
                    SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess
                else { return false }
                return SecTrustEvaluateWithError(trust, nil)
            case .publicKeys(let certificates):
                guard SecTrustEvaluateWithError(trust, nil) else { return false }
                let pinned = Set(
                    certificates.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
                        .compactMap(Self.publicKey(of:))
                )
                let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
                return chain.contains { Self.publicKey(of: $0).map(pinned.contains) ?? false }
            }
        }

        /// The external representation of a certificate's public key.
        private static func publicKey(of certificate: SecCertificate) -> Data? {
            guard let key = SecCertificateCopyKey(certificate) else { return nil }
            return SecKeyCopyExternalRepresentation(key, nil) as Data?
        }

        /// The credential for a client-certificate challenge, or `nil` without ``clientIdentity``.
        /// - Throws: ``TLSTrust/Failure/invalidClientIdentity(_:)`` when the archive cannot be opened.
        func clientCredential() throws(TLSTrust.Failure) -> URLCredential? {
            guard let identity = clientIdentity else { return nil }
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: identity.passphrase] as CFDictionary
            let status = SecPKCS12Import(identity.pkcs12 as CFData, options, &items)
            guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
                let found = first[kSecImportItemIdentity as String]
            else {
                throw .invalidClientIdentity("the PKCS #12 archive could not be opened (status \(status))")
            }
            let secIdentity = found as! SecIdentity  // a CoreFoundation type: the cast cannot fail
            let chain = (first[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
            return URLCredential(
                identity: secIdentity,
                certificates: Array(chain.dropFirst()),
                persistence: .forSession
            )
        }
    }
#endif
