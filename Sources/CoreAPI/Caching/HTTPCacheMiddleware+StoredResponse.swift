public import Foundation

extension HTTPCacheMiddleware {
    /// A response as a ``HTTPCacheMiddleware/Store`` keeps it: status, header fields without secrets, body, the times
    /// the HTTP cache computes its age from, and digests of the request fields its `Vary` names.
    public struct StoredResponse: Sendable, Hashable, Codable {
        /// The URL it answered, without secret query parameters.
        public var url: URL
        /// The status code.
        public var statusCode: Int
        /// The header fields as name and value pairs, in order, with secret ones (`Set-Cookie`, configured
        /// secret names) left out.
        public var headerFields: [[String]]
        /// The body, decoded from any content coding.
        public var body: Data
        /// When the request that brought it was sent (RFC 9111's `request_time`).
        public var requestTime: Date
        /// When it arrived (RFC 9111's `response_time`), which is also when it was stored or last refreshed.
        public var responseTime: Date
        /// The class the entry belongs to, such as the user it was fetched for; ``HTTPCacheMiddleware/Store``'s
        /// `removeResponses(classifiedAs:)` drops a class at once.
        public var classification: String?
        /// What the request had in the fields the response's `Vary` names, by lower-cased name: never the
        /// values themselves but their digests — `sha256:` and the SHA-256 of the value for a field that
        /// is not secret, `hmac-sha256:` and a keyed digest (see ``HTTPCacheMiddleware/DigestKey``) for a secret one, such
        /// as `Authorization` or `Cookie`; a field the request did not have counts as empty.
        public var varyValues: [String: String]

        /// The most variants a ``HTTPCacheMiddleware/Store`` keeps for one key: 8.
        public static let maximumVariantsPerKey = 8

        /// Creates a stored response.
        public init(
            url: URL,
            statusCode: Int,
            headers: Headers,
            body: Data,
            requestTime: Date,
            responseTime: Date,
            classification: String? = nil,
            varyValues: [String: String] = [:]
        ) {
            self.url = url
            self.statusCode = statusCode
            self.headerFields = headers.map { [$0.name, $0.value] }
            self.body = body
            self.requestTime = requestTime
            self.responseTime = responseTime
            self.classification = classification
            self.varyValues = varyValues
        }

        /// The header fields.
        public var headers: Headers {
            Headers(headerFields.compactMap { $0.count == 2 ? Headers.Field(name: $0[0], value: $0[1]) : nil })
        }

        /// What tells this variant apart from others of its key: its ``varyValues``, sorted by name, as
        /// `name=value` lines; empty for a response without `Vary`.
        public var variantKey: String {
            varyValues.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }.joined(separator: "\n")
        }

        /// The bytes the entry takes, roughly: its body and header fields.
        public var size: Int {
            body.count + headerFields.reduce(0) { $0 + $1.reduce(0) { $0 + $1.utf8.count } }
                + url.absoluteString.utf8.count
                + varyValues.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
    }
}
