import Foundation

/// Public-key pins as SHA-256 digests of a SubjectPublicKeyInfo, whichever way they were given: the one
/// form every transport compares a server's key with.
extension TLSTrust {
    /// The digests a server's key must be one of, or `nil` when ``server`` pins no key.
    /// - Throws: ``TLSTrust/Failure/invalidCertificate(_:)`` for a pinned certificate whose key cannot be
    ///   found; ``TLSTrust/Failure/invalidPin(_:)`` for a pin that is not a base64 SHA-256 digest, or for
    ///   an empty list.
    package func pinnedKeyDigests() throws(TLSTrust.Failure) -> Set<[UInt8]>? {
        var digests = Set<[UInt8]>()
        switch server {
        case .system, .certificates:
            return nil
        case .publicKeys(let certificates):
            for (index, certificate) in certificates.enumerated() {
                guard let key = certificate.subjectPublicKeyInfo else {
                    throw .invalidCertificate("certificate \(index + 1) is not a DER X.509 certificate")
                }
                digests.insert(SHA256.digest(of: key))
            }
        case .publicKeySHA256(let pins, _):
            for (index, pin) in pins.enumerated() {
                guard let digest = Data(base64Encoded: pin), digest.count == 32 else {
                    throw .invalidPin("pin \(index + 1) is not the base64 of a SHA-256 digest")
                }
                digests.insert(Array(digest))
            }
        }
        guard !digests.isEmpty else {
            throw .invalidPin("no key is pinned")
        }
        return digests
    }
}

extension TLSTrust.Certificate {
    /// The DER bytes of the certificate's SubjectPublicKeyInfo (its key and the key's algorithm), or `nil`
    /// when the bytes are not an X.509 certificate.
    ///
    /// A certificate is `SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
    /// signature, issuer, validity, subject, subjectPublicKeyInfo, … }, … }` (RFC 5280 §4.1).
    package var subjectPublicKeyInfo: [UInt8]? {
        let bytes = [UInt8](der)
        guard let certificate = Self.element(of: bytes, at: 0), certificate.tag == 0x30,
            let tbs = Self.element(of: bytes, at: certificate.content.lowerBound), tbs.tag == 0x30
        else { return nil }
        var offset = tbs.content.lowerBound
        guard let first = Self.element(of: bytes, at: offset) else { return nil }
        if first.tag == 0xa0 {  // the explicit version
            offset = first.end
        }
        for _ in 0..<5 {  // serialNumber, signature, issuer, validity, subject
            guard let skipped = Self.element(of: bytes, at: offset), skipped.end <= tbs.content.upperBound else {
                return nil
            }
            offset = skipped.end
        }
        guard let key = Self.element(of: bytes, at: offset), key.tag == 0x30, key.end <= tbs.content.upperBound
        else { return nil }
        return Array(bytes[offset..<key.end])
    }

    /// The DER element at `offset`: its tag, the range of its content and where it ends; `nil` when the
    /// bytes end first or its length is not in DER's definite form.
    private static func element(of bytes: [UInt8], at offset: Int) -> (tag: UInt8, content: Range<Int>, end: Int)? {
        guard offset >= 0, bytes.count - offset >= 2 else { return nil }
        var length = Int(bytes[offset + 1])
        var start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard (1...4).contains(count), bytes.count - start >= count else { return nil }
            length = 0
            for byte in bytes[start..<(start + count)] {
                length = length << 8 | Int(byte)
            }
            start += count
        }
        guard length <= bytes.count - start else { return nil }
        return (bytes[offset], start..<(start + length), start + length)
    }
}
