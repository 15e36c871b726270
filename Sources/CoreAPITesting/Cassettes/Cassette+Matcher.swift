import Foundation

extension Cassette {
    /// One rule a ``Cassette/Player`` uses to decide whether an entry answers a request: it compares the
    /// entry's request with the request sent (both redacted) and says how they differ, or `nil` when they
    /// agree.
    ///
    /// An entry answers a request when every matcher agrees. ``defaults`` compares the method, the URL's
    /// path, the query (order aside) and the body (JSON compared as values, form bodies order aside); the
    /// host is left out so that a cassette recorded against one server replays under another. Replace or
    /// add matchers to compare more, or less:
    ///
    /// ```swift
    /// let matchers = Cassette.Matcher.defaults + [.headers(["Accept-Language"])]
    /// let loose = [Cassette.Matcher.method, .path]
    /// let byTenant = Cassette.Matcher("tenant") { recorded, sent in
    ///     recorded.url.contains("tenant=") == sent.url.contains("tenant=") ? nil : "one names a tenant"
    /// }
    /// ```
    public struct Matcher: Sendable {
        /// The matcher's name, shown with the differences it finds.
        public var name: String
        /// How the sent request differs from the entry's, in a few words; `nil` when they agree.
        public var difference:
            @Sendable (_ recorded: Cassette.Archive.Request, _ sent: Cassette.Archive.Request) -> String?

        /// Creates a matcher.
        /// - Parameters:
        ///   - name: Its name.
        ///   - difference: Compares an entry's request with the sent one; `nil` when they agree.
        public init(
            _ name: String,
            difference:
                @escaping @Sendable (_ recorded: Cassette.Archive.Request, _ sent: Cassette.Archive.Request) -> String?
        ) {
            self.name = name
            self.difference = difference
        }

        /// The default matchers: ``method``, ``path``, ``query`` and ``body``.
        public static let defaults: [Cassette.Matcher] = [.method, .path, .query, .body]

        /// The method, ignoring case.
        public static let method = Cassette.Matcher("method") { recorded, sent in
            recorded.method.uppercased() == sent.method.uppercased()
                ? nil : "recorded \(recorded.method), sent \(sent.method)"
        }

        /// The URL's path, percent-encoding aside.
        public static let path = Cassette.Matcher("path") { recorded, sent in
            let paths = (recorded.parsedURL?.path ?? recorded.url, sent.parsedURL?.path ?? sent.url)
            return paths.0 == paths.1 ? nil : "recorded \(paths.0), sent \(paths.1)"
        }

        /// The scheme, host and port.
        public static let host = Cassette.Matcher("host") { recorded, sent in
            let origin = { (url: URLComponents?) in "\(url?.scheme ?? "")://\(url?.host ?? ""):\(url?.port ?? 0)" }
            let origins = (origin(recorded.parsedURL), origin(sent.parsedURL))
            return origins.0 == origins.1 ? nil : "recorded \(origins.0), sent \(origins.1)"
        }

        /// The query's parameters, in any order; a parameter repeated must be repeated as often. A value the
        /// cassette keeps redacted matches any value.
        public static let query = Cassette.Matcher("query") { recorded, sent in
            let pairs = (queryPairs(recorded), masking(queryPairs(sent), like: queryPairs(recorded)))
            guard pairs.0.sorted(by: <) != pairs.1.sorted(by: <) else { return nil }
            return "recorded \(describe(pairs.0)), sent \(describe(pairs.1))"
        }

        /// The query's parameters in their order.
        public static let orderedQuery = Cassette.Matcher("query order") { recorded, sent in
            let pairs = (queryPairs(recorded), masking(queryPairs(sent), like: queryPairs(recorded)))
            guard !pairs.0.elementsEqual(pairs.1, by: ==) else { return nil }
            return "recorded \(describe(pairs.0)), sent \(describe(pairs.1))"
        }

        /// The body: JSON bodies as values (key order and spacing aside), form bodies as their pairs in any
        /// order, others byte for byte; a JSON or form value the cassette keeps redacted matches any value. An entry that kept only a digest of its body compares digests.
        public static let body = Cassette.Matcher("body") { recorded, sent in
            guard let sentBody = try? sent.bodyData() else { return "the sent body cannot be read" }
            let recordedBody: Data
            do throws(Cassette.Archive.BodyFailure) {
                guard let body = try recorded.bodyData() else {
                    let digest = Cassette.Archive.sha256(of: sentBody)
                    return digest == recorded.postData?.sha256 ? nil : "recorded a body with another digest"
                }
                recordedBody = body
            } catch {
                return error.reason
            }
            return bodyDifference(recordedBody, sentBody, mimeType: recorded.postData?.mimeType ?? "")
        }

        /// The values of the header fields `names` (ignoring case), repeated fields in order.
        /// - Parameter names: The fields to compare.
        public static func headers(_ names: [String]) -> Cassette.Matcher {
            Cassette.Matcher("headers") { recorded, sent in
                let differing = names.filter { name in
                    let values = { (request: Cassette.Archive.Request) in
                        request.headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
                    }
                    return values(recorded) != values(sent)
                }
                return differing.isEmpty ? nil : "the values of \(differing.joined(separator: ", ")) differ"
            }
        }

        // MARK: - Helpers

        private static func queryPairs(_ request: Cassette.Archive.Request) -> [Pair] {
            guard let items = request.parsedURL?.queryItems else {
                return request.queryString.map { Pair(name: $0.name, value: $0.value) }
            }
            return items.map { Pair(name: $0.name, value: $0.value ?? "") }
        }

        /// `sent` with the value of each parameter the cassette keeps redacted (and `sent` does not hold as
        /// recorded) replaced by the placeholder: a redacted value matches any value, whichever secrets the
        /// cassette's redaction knew when it was recorded.
        private static func masking(_ sent: [Pair], like recorded: [Pair]) -> [Pair] {
            let placeholders: Set<String> = [Cassette.Redaction.placeholder, Cassette.Redaction.encodedPlaceholder]
            let redacted = Set(recorded.filter { placeholders.contains($0.value) }.map(\.name))
            guard !redacted.isEmpty else { return sent }
            let kept = Set(recorded)
            return sent.map { pair in
                guard redacted.contains(pair.name), !kept.contains(pair) else { return pair }
                let placeholder = recorded.first { $0.name == pair.name && placeholders.contains($0.value) }!.value
                return Pair(name: pair.name, value: placeholder)
            }
        }

        /// `sent` with every value the recorded JSON keeps redacted, at the same place, replaced by it.
        private static func masking(_ sent: Any, like recorded: Any) -> Any {
            if let text = recorded as? String, text == Cassette.Redaction.placeholder { return text }
            if let recorded = recorded as? [String: Any], var sent = sent as? [String: Any] {
                for (key, value) in sent {
                    if let old = recorded[key] { sent[key] = masking(value, like: old) }
                }
                return sent
            }
            if let recorded = recorded as? [Any], let sent = sent as? [Any], recorded.count == sent.count {
                return zip(sent, recorded).map { masking($0, like: $1) }
            }
            return sent
        }

        private static func describe(_ pairs: [Pair]) -> String {
            pairs.isEmpty ? "no query" : pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        }

        private static func bodyDifference(_ recorded: Data, _ sent: Data, mimeType: String) -> String? {
            if recorded == sent { return nil }
            let json = { (data: Data) in try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) }
            if !recorded.isEmpty, !sent.isEmpty, let recordedJSON = json(recorded), let sentJSON = json(sent) {
                if canonical(recordedJSON) == canonical(masking(sentJSON, like: recordedJSON)) { return nil }
                return "JSON differs: recorded \(excerpt(recorded)), sent \(excerpt(sent))"
            }
            if mimeType.lowercased().contains("x-www-form-urlencoded") {
                let pairs = { (data: Data) in
                    String(decoding: data, as: UTF8.self).split(separator: "&").map { pair in
                        let parts = pair.split(separator: "=", maxSplits: 1)
                        return Pair(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
                    }
                }
                let recordedPairs = pairs(recorded)
                if recordedPairs.sorted(by: <) == masking(pairs(sent), like: recordedPairs).sorted(by: <) { return nil }
            }
            return "recorded \(excerpt(recorded)), sent \(excerpt(sent))"
        }

        /// A JSON value written with sorted keys: equal values, equal text.
        private static func canonical(_ value: Any) -> Data? {
            try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }

        private static func excerpt(_ data: Data) -> String {
            if data.isEmpty { return "no body" }
            guard let text = String(data: data, encoding: .utf8), !data.contains(0) else {
                return "\(data.count) bytes"
            }
            return text.count > 120 ? "\(text.prefix(120))… (\(data.count) bytes)" : text
        }

        private struct Pair: Hashable, Comparable {
            let name: String
            let value: String

            static func < (lhs: Pair, rhs: Pair) -> Bool {
                (lhs.name, lhs.value) < (rhs.name, rhs.value)
            }
        }
    }
}
