public import Foundation

extension Secrets.Redaction {
    /// The largest JSON or form body that is parsed to be redacted: 1 MiB. A larger one is rendered
    /// only as its size and type.
    public static let maximumRedactedBodySize = 1 << 20

    /// `body` as text safe for logs.
    ///
    /// By the essence of `contentType` (case and parameters ignored):
    /// - `application/json`, `text/json` and `…+json`: parsed, secret values replaced at any depth, and
    ///   written again compactly with sorted keys. A body that does not parse is never printed:
    ///   `<12 bytes, application/json, not valid JSON>`;
    /// - `application/x-www-form-urlencoded`: secret values replaced, the rest as it was;
    /// - `text/…`, `application/xml`, `…+xml`, `application/javascript`: the UTF-8 text as it is;
    /// - `multipart/…` and everything else: `<1024 bytes, image/png>`;
    /// - no type: JSON when it parses as an object or array, otherwise UTF-8 text redacted as a form
    ///   body, otherwise `<N bytes>`.
    ///
    /// Secret values found in the body are also replaced wherever else they occur in it.
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type` value, if any.
    /// - Returns: The redacted text, the size-and-type description in angle brackets, or `""` for an
    ///   empty body.
    public func redact(_ body: Data, contentType: String?) -> String {
        var secrets: Set<String> = []
        switch render(body, length: body.count, contentType: contentType, collecting: &secrets) {
        case .empty: return ""
        case .text(let text): return Self.scrub(text, removing: secrets)
        case .opaque(let description): return "<\(description)>"
        }
    }

    /// How a body is shown.
    enum RenderedBody: Equatable {
        /// No body.
        case empty
        /// Redacted text, not yet scrubbed of the secret values collected.
        case text(String)
        /// Only a description, `1024 bytes, image/png`: the body is binary, multipart, unparseable or
        /// not in memory.
        case opaque(String)
    }

    private enum Kind {
        case json
        case form
        case text
        case opaque
    }

    /// Renders a body given in memory (`body`) or only by its length (an upload from a file or stream).
    func render(
        _ body: Data?,
        length: Int?,
        contentType: String?,
        collecting secrets: inout Set<String>
    ) -> RenderedBody {
        let essence = contentType.map(Self.essence)
        guard let size = body?.count ?? length, size > 0 else { return .empty }
        func opaque(_ reason: String? = nil) -> RenderedBody {
            .opaque(
                ([size == 1 ? "1 byte" : "\(size) bytes", essence] + [reason]).compactMap { $0 }.joined(separator: ", ")
            )
        }
        guard let body else { return opaque() }
        let kind = essence.map(Self.kind) ?? .text
        switch kind {
        case .opaque:
            return opaque()
        case .json, .form, .text:
            if kind != .text, size > Self.maximumRedactedBodySize { return opaque("too large to redact") }
            guard kind != .json else {
                return redactJSON(body, collecting: &secrets).map(RenderedBody.text) ?? opaque("not valid JSON")
            }
            guard let text = String(data: body, encoding: .utf8), Self.isPrintable(text) else { return opaque() }
            if kind == .form { return .text(redactPairs(text, collecting: &secrets)) }
            if essence != nil { return .text(text) }
            // No type: JSON if it parses as a container, otherwise text that may be a form body.
            if size <= Self.maximumRedactedBodySize, let first = text.first(where: { !$0.isWhitespace }),
                first == "{" || first == "[", let json = redactJSON(body, collecting: &secrets)
            {
                return .text(json)
            }
            return .text(redactPairs(text, collecting: &secrets))
        }
    }

    /// The media type of a `Content-Type` value, lower-cased, without parameters.
    static func essence(of contentType: String) -> String {
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func kind(of essence: String) -> Kind {
        if essence == "application/json" || essence == "text/json" || essence.hasSuffix("+json") { return .json }
        if essence == "application/x-www-form-urlencoded" { return .form }
        if essence.hasPrefix("text/") || essence == "application/xml" || essence.hasSuffix("+xml")
            || essence == "application/javascript"
        {
            return .text
        }
        return .opaque
    }

    /// Whether `text` has no control characters but tab, line feed and carriage return.
    private static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            scalar == "\t" || scalar == "\n" || scalar == "\r"
                || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }
    }

    /// The JSON `body` with secret values replaced, written compactly with sorted keys; `nil` when it
    /// does not parse.
    private func redactJSON(_ body: Data, collecting secrets: inout Set<String>) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: redactJSONValue(value, collecting: &secrets),
                options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
            )
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    private func redactJSONValue(_ value: Any, collecting secrets: inout Set<String>) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, value) in object {
                if isSecretParameter(key), !Self.isEmptyJSON(value) {
                    Self.collectLeaves(of: value, into: &secrets)
                    result[key] = Self.marker
                } else {
                    result[key] = redactJSONValue(value, collecting: &secrets)
                }
            }
            return result
        }
        if let array = value as? [Any] {
            return array.map { redactJSONValue($0, collecting: &secrets) }
        }
        return value
    }

    /// Whether a JSON value reveals nothing: `null` or an empty string.
    private static func isEmptyJSON(_ value: Any) -> Bool {
        value is NSNull || (value as? String)?.isEmpty == true
    }

    private static func collectLeaves(of value: Any, into secrets: inout Set<String>) {
        if let text = value as? String {
            secrets.insert(text)
            // As JSONSerialization writes it, in case the value is echoed in an escaped form.
            if let data = try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]),
                let escaped = String(data: data, encoding: .utf8)
            {
                secrets.insert(String(escaped.dropFirst().dropLast()))
            }
        } else if let object = value as? [String: Any] {
            for value in object.values { collectLeaves(of: value, into: &secrets) }
        } else if let array = value as? [Any] {
            for value in array { collectLeaves(of: value, into: &secrets) }
        } else if !(value is Bool), let number = value as? NSNumber {  // `true` is no secret to search for
            secrets.insert(number.stringValue)
        }
    }
}
