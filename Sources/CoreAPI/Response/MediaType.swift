/// Reading `Content-Type` values and matching them against media-type patterns.
enum MediaType {
    /// Whether the media type of `contentType` (parameters ignored, case-insensitive) matches one of
    /// `patterns`: an exact `type/subtype`, `type/*`, `*/*`, or a structured-syntax suffix such as
    /// `application/*+json`. A missing or malformed `contentType` matches nothing.
    static func matches(_ contentType: String?, anyOf patterns: [String]) -> Bool {
        guard let (type, subtype) = contentType.flatMap(parts) else { return false }
        return patterns.contains { pattern in
            guard let (patternType, patternSubtype) = parts(of: pattern) else { return false }
            guard patternType == "*" || patternType == type else { return false }
            if patternSubtype == "*" || patternSubtype == subtype { return true }
            if patternSubtype.hasPrefix("*+") {
                return subtype.hasSuffix(patternSubtype.dropFirst())
            }
            return false
        }
    }

    /// The lower-cased `type/subtype` of a `Content-Type` value, or `nil` when it is not one.
    static func essence(of contentType: String) -> String? {
        parts(of: contentType).map { "\($0)/\($1)" }
    }

    /// The `charset` parameter of a `Content-Type` value, lower-cased and unquoted, or `nil`.
    static func charset(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace.lowercased() == "charset" else { continue }
            var value = pair[1].trimmingWhitespace
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }

    /// The lower-cased type and subtype of a media type, without parameters.
    private static func parts(of text: String) -> (Substring, Substring)? {
        let essence = text.prefix { $0 != ";" }.lowercased()
        let pieces = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return nil }
        let type = pieces[0].trimmingWhitespace
        let subtype = pieces[1].trimmingWhitespace
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
        return (type, subtype)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
