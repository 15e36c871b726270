public import Foundation

extension TLSTrust {
    /// One X.509 certificate, in DER form.
    public struct Certificate: Sendable, Hashable {
        /// The certificate's DER bytes.
        public var der: Data

        /// Creates a certificate from its DER bytes.
        /// - Parameter der: The DER encoding, as in a `.cer` or `.der` file.
        public init(der: Data) {
            self.der = der
        }

        /// Creates a certificate from the first `CERTIFICATE` block of a PEM text.
        /// - Parameter pem: A PEM text, as in a `.pem` or `.crt` file.
        /// - Throws: ``TLSTrust/Failure/invalidCertificate(_:)`` when the text holds no certificate block.
        public init(pem: String) throws(TLSTrust.Failure) {
            guard let first = try Self.all(inPEM: pem).first else {
                throw .invalidCertificate("no CERTIFICATE block in the PEM text")
            }
            self = first
        }

        /// Every `CERTIFICATE` block of a PEM text, in order (a bundle or a chain).
        /// - Parameter pem: A PEM text.
        /// - Returns: The certificates; empty when the text has none.
        /// - Throws: ``TLSTrust/Failure/invalidCertificate(_:)`` when a block is not valid base64 or is not
        ///   closed.
        public static func all(inPEM pem: String) throws(TLSTrust.Failure) -> [TLSTrust.Certificate] {
            let begin = "-----BEGIN CERTIFICATE-----"
            let end = "-----END CERTIFICATE-----"
            var certificates: [TLSTrust.Certificate] = []
            var rest = Substring(pem)
            while let start = rest.range(of: begin) {
                guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                    throw .invalidCertificate("certificate \(certificates.count + 1) has no END line")
                }
                let base64 = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
                guard let der = Data(base64Encoded: String(base64)), !der.isEmpty else {
                    throw .invalidCertificate("certificate \(certificates.count + 1) is not valid base64")
                }
                certificates.append(TLSTrust.Certificate(der: der))
                rest = rest[stop.upperBound...]
            }
            return certificates
        }
    }
}
