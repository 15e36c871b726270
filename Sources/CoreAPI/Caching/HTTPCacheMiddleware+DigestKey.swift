extension HTTPCacheMiddleware {
    /// The key of the keyed digests (HMAC-SHA256) that stand for secrets in an HTTP cache: the credentials
    /// that tell users apart, and the secret fields a response varies on.
    ///
    /// A store never holds a secret, only such digests, and never this key: ``ephemeral``, the default,
    /// lives in memory only, so entries that depend on it are not found again by another process (they
    /// are misses there, and age out); a key the app keeps elsewhere — in the Keychain, say — and passes
    /// to ``init(_:)`` lets such entries outlive the process. Keep that key out of the store's directory,
    /// or anyone who reads the files can test guesses of a token against them.
    ///
    /// ```swift
    /// let key = HTTPCacheMiddleware.DigestKey(try keychain.cacheKey())  // 32 random bytes kept by the app
    /// ```
    public struct DigestKey: Sendable, CustomStringConvertible {
        /// The key's bytes.
        let bytes: [UInt8]

        /// A random key made once per process, held in memory only.
        public static let ephemeral = HTTPCacheMiddleware.DigestKey(random: ())

        /// A key of the app's own: at least 32 bytes, random, and never written to the store's directory.
        /// Returns `nil` for fewer than 32 bytes.
        public init?(_ bytes: some Collection<UInt8>) {
            guard bytes.count >= 32 else { return nil }
            self.bytes = Array(bytes)
        }

        private init(random: Void) {
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }

        /// `HTTPCacheMiddleware.DigestKey(<redacted>)`: the bytes are never printed.
        public var description: String { "HTTPCacheMiddleware.DigestKey(<redacted>)" }

        /// The digest of `parts` under this key, as `hmac-sha256:` and 64 hexadecimal digits; each part is
        /// preceded by its length in UTF-8 bytes, so no two lists of parts give one message.
        func digest(_ parts: [String]) -> String {
            "hmac-sha256:" + SHA256.hmacHex(key: bytes, message: Self.message(parts))
        }

        /// `parts` as one unambiguous message: each part's UTF-8 length, `:`, and the part.
        static func message(_ parts: [String]) -> [UInt8] {
            var message: [UInt8] = []
            for part in parts {
                message += Array("\(part.utf8.count):".utf8)
                message += Array(part.utf8)
            }
            return message
        }
    }
}
