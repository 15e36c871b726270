import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body text, decoded with the response's charset.
extension String: TextApiResponse {
    /// The text itself; never `nil`.
    public init?(text: String) {
        self = text
    }
}

/// A body that is one integer, such as `42`, with optional white space around it.
extension Int: TextApiResponse {
    /// The integer the trimmed text spells in decimal, with an optional sign; `nil` otherwise.
    public init?(text: String) {
        self.init(PlainText.trimmed(text))
    }
}

/// A body that is one finite number, such as `0.25` or `-1e3`, with optional white space around it.
extension Double: TextApiResponse {
    /// The number the trimmed text spells; `nil` for anything else, `nan` and `inf` included.
    public init?(text: String) {
        let trimmed = PlainText.trimmed(text)
        guard PlainText.isNumber(trimmed), let value = Double(trimmed), value.isFinite else { return nil }
        self = value
    }
}

/// A body that is one decimal number, such as `19.99`, read exactly, with optional white space around it.
extension Decimal: TextApiResponse {
    /// The number the trimmed text spells, without rounding through `Double`; `nil` for anything else.
    public init?(text: String) {
        let trimmed = PlainText.trimmed(text)
        guard PlainText.isNumber(trimmed),
            let value = Decimal(string: String(trimmed), locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = value
    }
}

/// A body that is one Boolean: `true`, `false`, `1` or `0`, in any case, with optional white space around it.
extension Bool: TextApiResponse {
    /// `true` for `true` or `1`, `false` for `false` or `0`; `nil` otherwise.
    public init?(text: String) {
        switch PlainText.trimmed(text).lowercased() {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
}

/// A body that is one UUID, such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in either case, with optional
/// white space around it.
extension UUID: TextApiResponse {
    /// The UUID the trimmed text spells; `nil` otherwise.
    public init?(text: String) {
        self.init(uuidString: String(PlainText.trimmed(text)))
    }
}

/// The rules the plain-text values share.
enum PlainText {
    /// `text` without leading and trailing white space and line breaks.
    static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }

    /// Whether `text` is a JSON-style number: an optional sign, digits, an optional fraction and an
    /// optional exponent, nothing else.
    static func isNumber(_ text: Substring) -> Bool {
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard digits() > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if let exponent = bytes.first, exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
