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
                return Self.anchor(trust, in: certificates) && SecTrustEvaluateWithError(trust, nil)
            case .publicKeys, .publicKeySHA256:
                if case .publicKeySHA256(_, let roots) = server, !roots.isEmpty, !Self.anchor(trust, in: roots) {
                    return false
                }
                guard SecTrustEvaluateWithError(trust, nil), let pinned = try? pinnedKeyDigests() else {
                    return false
                }
                let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
                return chain.contains { certificate in
                    let der = TLSTrust.Certificate(der: SecCertificateCopyData(certificate) as Data)
                    return der.subjectPublicKeyInfo.map { pinned.contains(SHA256.digest(of: $0)) } ?? false
                }
            }
        }

        /// Makes `certificates` the only anchors of `trust`; whether that worked.
        private static func anchor(_ trust: SecTrust, in certificates: [TLSTrust.Certificate]) -> Bool {
            let anchors = certificates.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
            return !anchors.isEmpty && anchors.count == certificates.count
                && SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess
                && SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess
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
