public import CoreAPI
import Foundation

extension Cassette {
    /// What a cassette hides before anything is written, and how a replay sees requests the same way.
    ///
    /// - Header fields the ``secrets`` name — always `Authorization`, `Proxy-Authorization`, `Cookie` and
    ///   `Set-Cookie`, plus the configured names — and the cookies an exporter listed, become ``placeholder``.
    /// - Parameters whose key is secret (see ``/CoreAPI/Secrets/isSecretParameter(_:)``) become
    ///   ``placeholder`` in URL queries, in `application/x-www-form-urlencoded` bodies and in JSON bodies at
    ///   any depth, in requests and responses alike. A URL's user information is dropped.
    /// - Every secret value found that way (of at least four characters) — a token, a cookie's value, a
    ///   password — is also replaced wherever else it appears in the entry, so a server that echoes a token in
    ///   its body does not put it in the cassette.
    /// - Values a test names with ``replacing(_:with:)`` become the placeholder it chose, everywhere.
    ///
    /// The placeholders are fixed text, so a recording is the same each time and a replay matches: a
    /// ``Cassette/Player`` redacts each request it receives with the same rules before comparing it with the
    /// entries (a request sending a real token matches the entry that holds `<redacted>`).
    ///
    /// ```swift
    /// let redaction = Cassette.Redaction(secrets: Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"]))
    ///     .replacing("4111 1111 1111 1111", with: "<card-number>")
    /// ```
    public struct Redaction: Sendable, Hashable {
        /// What replaces a secret value: `<redacted>`.
        public static let placeholder = "<redacted>"

        /// The header names and parameter keys whose values are hidden; use a session's
        /// ``/CoreAPI/SessionPolicy/secrets`` so that what the session keeps secret the cassette does too.
        public var secrets: Secrets
        /// Values a test names, each with the text that replaces it.
        public private(set) var values: [String: String]

        /// Creates a redaction.
        /// - Parameters:
        ///   - secrets: The secret header names and parameter keys; the built-in and default ones when left out.
        ///   - values: Values to replace wherever they appear, each with its placeholder.
        public init(secrets: Secrets = Secrets(), values: [String: String] = [:]) {
            self.secrets = secrets
            self.values = values
        }

        /// This redaction, also replacing `value` with `placeholder` wherever it appears: in URLs (also
        /// percent-encoded), header fields and text bodies.
        /// - Parameters:
        ///   - value: The text to hide, such as an account number a test uses.
        ///   - placeholder: What replaces it; ``placeholder`` by default.
        public func replacing(
            _ value: String,
            with placeholder: String = Cassette.Redaction.placeholder
        ) -> Cassette.Redaction {
            var copy = self
            copy.values[value] = placeholder
            return copy
        }

        /// `entry` with every secret replaced, as it is written to a cassette.
        /// - Parameter entry: An exchange as it happened, or as a file holds it.
        /// - Returns: The entry with secret values replaced by their placeholders.
        public func redact(_ entry: Cassette.Archive.Entry) -> Cassette.Archive.Entry {
            var found: Set<String> = []
            var entry = entry
            entry.request = redactFields(of: entry.request, found: &found)
            entry.response.headers = redact(entry.response.headers, found: &found)
            entry.response.cookies = redactCookies(entry.response.cookies, found: &found)
            entry.response.redirectURL = redactURL(entry.response.redirectURL, found: &found)
            entry.response.content.text = redactBody(
                entry.response.content.text,
                mimeType: entry.response.content.mimeType,
                isBase64: entry.response.content.encoding == "base64",
                found: &found
            )
            return scrub(entry, of: found)
        }

        /// `request` redacted as an entry's request is: how a replay compares a request with the entries.
        func redact(_ request: Cassette.Archive.Request) -> Cassette.Archive.Request {
            var found: Set<String> = []
            let redacted = redactFields(of: request, found: &found)
            let entry = Cassette.Archive.Entry(
                startedDateTime: "",
                time: 0,
                request: redacted,
                response: Cassette.Archive.Response(
                    status: 200,
                    content: Cassette.Archive.Content(mimeType: "", text: nil)
                ),
                timings: Cassette.Archive.Timings()
            )
            return scrub(entry, of: found).request
        }

        // MARK: - Fields

        private func redactFields(
            of request: Cassette.Archive.Request,
            found: inout Set<String>
        ) -> Cassette.Archive.Request {
            var request = request
            request.headers = redact(request.headers, found: &found)
            request.cookies = redactCookies(request.cookies, found: &found)
            request.url = redactURL(request.url, found: &found)
            request.queryString = request.queryString.map { field in
                guard secrets.isSecretParameter(field.name), !field.value.isEmpty else { return field }
                found.insert(field.value)
                return Cassette.Archive.Field(name: field.name, value: Self.placeholder)
            }
            if var postData = request.postData {
                postData.text = redactBody(
                    postData.text,
                    mimeType: postData.mimeType,
                    isBase64: postData.encoding == "base64",
                    found: &found
                )
                postData.params = postData.params.map { redactCookies($0, onlySecretKeys: true, found: &found) }
                request.postData = postData
            }
            return request
        }

        private func redact(_ fields: [Cassette.Archive.Field], found: inout Set<String>) -> [Cassette.Archive.Field] {
            fields.map { field in
                guard secrets.isSecretHeader(field.name), field.value != Self.placeholder else { return field }
                found.formUnion(Self.pieces(ofSecretHeaderValue: field.value))
                return Cassette.Archive.Field(name: field.name, value: Self.placeholder)
            }
        }

        private func redactCookies(
            _ cookies: [Cassette.Archive.Field],
            onlySecretKeys: Bool = false,
            found: inout Set<String>
        ) -> [Cassette.Archive.Field] {
            cookies.map { cookie in
                guard !onlySecretKeys || secrets.isSecretParameter(cookie.name), !cookie.value.isEmpty else {
                    return cookie
                }
                found.insert(cookie.value)
                return Cassette.Archive.Field(name: cookie.name, value: Self.placeholder)
            }
        }

        /// A secret header value and the parts a server may echo alone: the credentials after a scheme
        /// (`Bearer abc` → `abc`) and cookie values (`a=1; b=2` → `1`, `2`).
        static func pieces(ofSecretHeaderValue value: String) -> [String] {
            var pieces = [value]
            let words = value.split { $0 == " " || $0 == "\t" || $0 == "," || $0 == ";" }
            for (index, word) in words.enumerated() {
                if index == 0, words.count > 1, !word.contains("=") { continue }  // an authentication scheme
                pieces.append(String(word))
                if let equals = word.firstIndex(of: "=") {
                    pieces.append(String(word[word.index(after: equals)...]))
                }
            }
            return pieces
        }

        // MARK: - URLs and bodies

        /// The placeholder as it stands in a URL.
        static let encodedPlaceholder = "%3Credacted%3E"

        func redactURL(_ text: String, found: inout Set<String>) -> String {
            guard !text.isEmpty, var components = URLComponents(string: text) else { return text }
            if let password = components.password { found.insert(password) }
            if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
                components.percentEncodedUser = nil
                components.percentEncodedPassword = nil
            }
            if let query = components.percentEncodedQuery {
                components.percentEncodedQuery = redactPairs(query, found: &found)
            }
            return components.string ?? text
        }

        /// `key=value` pairs joined with `&`, with the values of secret keys replaced.
        /// (A pair's placeholder is percent-encoded, as the pair is: `%3Credacted%3E`.)
        func redactPairs(_ text: String, found: inout Set<String>) -> String {
            text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let key = Self.formDecoded(pair[..<equals])
                let value = pair[pair.index(after: equals)...]
                guard !value.isEmpty, value != Self.encodedPlaceholder, secrets.isSecretParameter(key) else {
                    return String(pair)
                }
                found.insert(String(value))
                found.insert(Self.formDecoded(value))
                return pair[..<equals] + "=" + Self.encodedPlaceholder
            }.joined(separator: "&")
        }

        /// Percent-decoded text, `+` read as a space.
        static func formDecoded(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }

        private func redactBody(_ text: String?, mimeType: String, isBase64: Bool, found: inout Set<String>) -> String?
        {
            guard let text, !isBase64 else { return text }
            let type = mimeType.lowercased()
            if type.contains("x-www-form-urlencoded") {
                return redactPairs(text, found: &found)
            }
            let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
            guard type.contains("json") || trimmed.first == "{" || trimmed.first == "[",
                !type.contains("jsonl"), !type.contains("ndjson"), !type.contains("json-seq"),
                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            else { return text }
            var changed = false
            let redacted = redactJSON(object, found: &found, changed: &changed)
            guard changed,
                let data = try? JSONSerialization.data(
                    withJSONObject: redacted,
                    options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
                )
            else { return text }
            return String(decoding: data, as: UTF8.self)
        }

        private func redactJSON(
            _ value: Any,
            secret: Bool = false,
            found: inout Set<String>,
            changed: inout Bool
        ) -> Any {
            switch value {
            case let object as [String: Any]:
                var result: [String: Any] = [:]
                for (key, member) in object {
                    let isSecret = secret || secrets.isSecretParameter(key)
                    result[key] = redactJSON(member, secret: isSecret, found: &found, changed: &changed)
                }
                return result
            case let array as [Any]:
                return array.map { redactJSON($0, secret: secret, found: &found, changed: &changed) }
            case is NSNull:
                return value
            case let string as String where secret:
                guard string != Self.placeholder else { return string }
                found.insert(string)
                changed = true
                return Self.placeholder
            default:
                guard secret else { return value }
                found.insert("\(value)")
                changed = true
                return Self.placeholder
            }
        }

        // MARK: - Scrubbing

        /// `entry` with every found secret value and every named value replaced in all its text.
        private func scrub(_ entry: Cassette.Archive.Entry, of found: Set<String>) -> Cassette.Archive.Entry {
            var replacements: [(String, String)] = found.filter { $0.count >= 4 && !Self.placeholder.contains($0) }
                .map { ($0, Self.placeholder) }
            replacements += values.map { ($0.key, $0.value) }
            guard !replacements.isEmpty else { return entry }
            replacements.sort { $0.0.count != $1.0.count ? $0.0.count > $1.0.count : $0.0 < $1.0 }
            let text = { (text: String) in Self.replace(replacements, in: text, inURL: false) }
            let url = { (text: String) in Self.replace(replacements, in: text, inURL: true) }
            let field = { (field: Cassette.Archive.Field) in
                Cassette.Archive.Field(name: field.name, value: text(field.value))
            }
            var entry = entry
            entry.request.url = url(entry.request.url)
            entry.request.queryString = entry.request.queryString.map(field)
            entry.request.headers = entry.request.headers.map(field)
            entry.request.cookies = entry.request.cookies.map(field)
            if var postData = entry.request.postData {
                if postData.encoding != "base64" { postData.text = postData.text.map(text) }
                postData.params = postData.params?.map(field)
                entry.request.postData = postData
            }
            entry.response.headers = entry.response.headers.map(field)
            entry.response.cookies = entry.response.cookies.map(field)
            entry.response.redirectURL = url(entry.response.redirectURL)
            if entry.response.content.encoding != "base64" {
                entry.response.content.text = entry.response.content.text.map(text)
            }
            return entry
        }

        private static func replace(_ replacements: [(String, String)], in text: String, inURL: Bool) -> String {
            var text = text
            for (value, placeholder) in replacements {
                let forms =
                    inURL
                    ? [value, value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value] : [value]
                let replacement =
                    inURL
                    ? placeholder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? placeholder
                    : placeholder
                for form in Set(forms) where text.contains(form) {
                    text = text.replacingOccurrences(of: form, with: replacement)
                }
            }
            return text
        }
    }
}
