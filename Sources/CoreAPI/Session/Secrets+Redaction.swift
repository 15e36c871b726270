public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Secrets {
    /// How logs and cURL renderings hide the header fields and parameters its ``secrets`` name.
    ///
    /// A secret value prints as ``marker`` (`<redacted>`, as in ``Headers/redactedDescription``):
    /// - header fields named in ``secretHeaderNames`` — always ``Secrets/builtInHeaderNames``
    ///   (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`) plus the configured names, ignoring
    ///   case. URLs in `Location`, `Content-Location` and `Referer` values are redacted like request URLs;
    /// - parameters whose key is in ``secretParameterKeys``, in URL queries and fragments, in
    ///   `application/x-www-form-urlencoded` bodies and in JSON bodies at any depth (see
    ///   ``isSecretParameter(_:)`` for how keys match);
    /// - the user information of a URL (`user:password@`), which becomes `<redacted>@`.
    ///
    /// Bodies are rendered by ``redact(_:contentType:)``: JSON and form bodies with secret values replaced,
    /// other text as it is, and multipart or binary bodies only as their size and type. A body that claims
    /// to be JSON but does not parse is never printed. Besides the rules above, every secret value found
    /// in a request or response (a token, a cookie value, a password) is also searched for in the rest of
    /// what is printed about it, so a server that echoes a token in an error page does not reveal it either
    /// (values shorter than four characters are not searched for).
    ///
    /// ```swift
    /// let redaction = Secrets.Redaction(secretHeaderNames: ["X-Api-Key"], secretParameterKeys: ["pin"])
    /// redaction.redact(URL(string: "https://api.example.com/login?user=ada&pin=1234")!)
    /// // "https://api.example.com/login?user=ada&pin=<redacted>"
    /// ```
    public struct Redaction: Sendable, Hashable {
        /// The text that replaces a secret value: `<redacted>`.
        public static let marker = "<redacted>"

        /// The parameter keys that are secrets by default (``Secrets/defaultParameterKeys``).
        public static var defaultSecretParameterKeys: Set<String> { Secrets.defaultParameterKeys }

        /// What is secret: the header names and parameter keys whose values are hidden.
        public private(set) var secrets: Secrets

        /// The header names whose values are hidden, lower-cased: ``Secrets/builtInHeaderNames`` and the
        /// configured ones.
        public var secretHeaderNames: Set<String> { secrets.headerNames }
        /// The parameter keys whose values are hidden, lower-cased.
        public var secretParameterKeys: Set<String> { secrets.parameterKeys }

        /// Creates a redaction policy.
        /// - Parameters:
        ///   - secretHeaderNames: Header names to hide besides ``Secrets/builtInHeaderNames``, in any case.
        ///   - secretParameterKeys: Parameter keys to hide, in any case.
        ///   - includesDefaultParameterKeys: Whether ``defaultSecretParameterKeys`` are hidden too; pass
        ///     `false` to hide only `secretParameterKeys`.
        public init(
            secretHeaderNames: Set<String> = [],
            secretParameterKeys: Set<String> = [],
            includesDefaultParameterKeys: Bool = true
        ) {
            secrets = Secrets(
                headerNames: secretHeaderNames,
                parameterKeys: secretParameterKeys,
                includesDefaultParameterKeys: includesDefaultParameterKeys
            )
        }

        /// Creates a redaction policy that hides `secrets`.
        public init(secrets: Secrets) {
            self.secrets = secrets
        }

        /// This redaction, hiding the header fields and parameters of `other` as well.
        func hiding(_ other: Secrets) -> Secrets.Redaction {
            Secrets.Redaction(secrets: secrets.union(other))
        }

        /// Whether the values of header fields called `name` are hidden; case is ignored.
        public func isSecretHeader(_ name: String) -> Bool {
            secrets.isSecretHeader(name)
        }

        /// Whether the values of parameters called `key` are hidden; see ``Secrets/isSecretParameter(_:)``
        /// for how keys match.
        public func isSecretParameter(_ key: String) -> Bool {
            secrets.isSecretParameter(key)
        }

        /// `headers` with the values of secret fields replaced with ``marker`` and URLs in `Location`,
        /// `Content-Location` and `Referer` values redacted; order and names are kept.
        public func redact(_ headers: Headers) -> Headers {
            var secrets: Set<String> = []
            return redact(headers, collecting: &secrets)
        }

        /// `url` as text with its user information and the values of secret query and fragment
        /// parameters replaced with ``marker``: `https://<redacted>@host/path?user=ada&password=<redacted>`.
        public func redact(_ url: URL) -> String {
            var secrets: Set<String> = []
            return redactURL(url.absoluteString, collecting: &secrets)
        }

        // MARK: - Internals shared by the logging middleware and the cURL rendering

        private static let urlValuedHeaders: Set<String> = ["location", "content-location", "referer"]

        /// `headers` redacted, adding the secret values found to `secrets`.
        func redact(_ headers: Headers, collecting secrets: inout Set<String>) -> Headers {
            Headers(
                headers.map { field in
                    if isSecretHeader(field.name) {
                        secrets.formUnion(Self.pieces(ofSecretHeaderValue: field.value))
                        return Headers.Field(name: field.name, value: Self.marker)
                    }
                    if Self.urlValuedHeaders.contains(field.name.lowercased()) {
                        return Headers.Field(name: field.name, value: redactURL(field.value, collecting: &secrets))
                    }
                    return field
                }
            )
        }

        /// A secret header value and the parts of it that may be echoed on their own: the credentials after
        /// an authentication scheme (`Bearer abc` → `abc`) and cookie values (`a=1; b=2` → `1`, `2`).
        static func pieces(ofSecretHeaderValue value: String) -> [String] {
            var pieces = [value]
            let words = value.split { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" }
            for (index, word) in words.enumerated() {
                if index == 0, words.count > 1, !word.contains("=") { continue }  // an authentication scheme
                pieces.append(String(word))
                if let equals = word.firstIndex(of: "=") {
                    let value = word[word.index(after: equals)...]
                    pieces.append(String(value.drop { $0 == "\"" }.reversed().drop { $0 == "\"" }.reversed()))
                }
            }
            return pieces
        }

        /// A URL or URL reference as text, redacted; text that is not a URL reference becomes ``marker``.
        func redactURL(_ text: String, collecting secrets: inout Set<String>) -> String {
            guard let components = URLComponents(string: text) else { return Self.marker }
            let hasUserInfo = components.percentEncodedUser != nil || components.percentEncodedPassword != nil
            guard hasUserInfo || components.percentEncodedQuery != nil || components.percentEncodedFragment != nil
            else {
                return text
            }
            // The ranges are in `string`, which may differ from `text` in its percent-encoding.
            guard let string = components.string else { return Self.marker }
            var result = ""
            var index = string.startIndex
            if hasUserInfo {
                if let password = components.password { secrets.insert(password) }
                if let password = components.percentEncodedPassword { secrets.insert(password) }
                guard let start = string.range(of: "//")?.upperBound,
                    let at = string[start...].firstIndex(of: "@")
                else { return Self.marker }
                result += string[..<start] + Self.marker
                index = at
            }
            if let query = components.rangeOfQuery {
                result += string[index..<query.lowerBound] + redactPairs(String(string[query]), collecting: &secrets)
                index = query.upperBound
            }
            if let fragment = components.rangeOfFragment {
                result +=
                    string[index..<fragment.lowerBound] + redactPairs(String(string[fragment]), collecting: &secrets)
                index = fragment.upperBound
            }
            return result + string[index...]
        }

        /// `key=value` pairs joined with `&` (a query or a form body) with secret non-empty values replaced.
        func redactPairs(_ text: String, collecting secrets: inout Set<String>) -> String {
            text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let key = pair[..<equals]
                let value = pair[pair.index(after: equals)...]
                guard !value.isEmpty, isSecretParameter(Self.formDecoded(key)) else { return String(pair) }
                secrets.insert(String(value))
                secrets.insert(Self.formDecoded(value))
                return key + "=" + Self.marker
            }.joined(separator: "&")
        }

        /// Percent-decoded text, `+` read as a space; the text itself when it is not valid percent-encoding.
        static func formDecoded(_ text: Substring) -> String {
            guard text.contains(where: { $0 == "%" || $0 == "+" }) else { return String(text) }
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }

        /// The secret values of a request's header fields; its URL and body add theirs when redacted.
        func headerSecrets(of request: ApiRequest) -> Set<String> {
            var secrets: Set<String> = []
            for field in request.headers where isSecretHeader(field.name) {
                secrets.formUnion(Self.pieces(ofSecretHeaderValue: field.value))
            }
            return secrets
        }

        /// `text` with every occurrence of a secret value (of at least four characters) replaced with
        /// ``marker``; longer values are replaced first.
        static func scrub(_ text: String, removing secrets: Set<String>) -> String {
            let searched = secrets.filter { $0.count >= 4 && !marker.contains($0) }.sorted {
                $0.count != $1.count ? $0.count > $1.count : $0 < $1
            }
            var text = text
            for secret in searched where text.contains(secret) {
                text = text.replacingOccurrences(of: secret, with: marker)
            }
            return text
        }
    }
}
