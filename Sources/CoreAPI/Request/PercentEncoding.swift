/// RFC 3986 percent-encoding over UTF-8 bytes.
enum PercentEncoding {
    /// The bytes of `string` that `isAllowed` rejects, percent-encoded with upper-case hex digits.
    static func encode(_ string: String, allowing isAllowed: (UInt8) -> Bool) -> String {
        let utf8 = string.utf8
        guard !utf8.allSatisfy(isAllowed) else { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        append(string, to: &bytes, allowing: isAllowed)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `string` to `output`, percent-encoding those `isAllowed` rejects
    /// (a space as `+` when `spaceAsPlus` is set). Runs of allowed bytes are copied at once.
    static func append(
        _ string: String,
        to output: inout [UInt8],
        allowing isAllowed: (UInt8) -> Bool,
        spaceAsPlus: Bool = false
    ) {
        string.appendUTF8(to: &output, keeping: isAllowed) { byte, output in
            if spaceAsPlus, byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                appendEscaped(byte, to: &output)
            }
        }
    }

    /// Appends `byte` as `%` and two upper-case hex digits.
    static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// RFC 3986 `unreserved`: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The bytes the WHATWG `application/x-www-form-urlencoded` serializer leaves as they are:
    /// `A–Z a–z 0–9 * - . _`.
    static func isFormUnescaped(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: "~") && (isUnreserved(byte) || byte == UInt8(ascii: "*"))
    }

    /// RFC 3986 `pchar` without `/`: unreserved, sub-delims, `:` and `@`. `?`, `#`, `%` and `/` are encoded.
    static func isPathSegmentCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
    }
}

extension String {
    /// Appends the string's UTF-8 bytes to `output`: runs of bytes `isPlain` accepts are copied at
    /// once, and every other byte is written by `escape`. The one escaping loop of the query, form and
    /// JSON writers.
    func appendUTF8(
        to output: inout [UInt8],
        keeping isPlain: (UInt8) -> Bool,
        escapingOthersWith escape: (UInt8, inout [UInt8]) -> Void
    ) {
        var string = self
        string.withUTF8 { input in
            var runStart = 0
            for index in input.indices where !isPlain(input[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                runStart = index + 1
                escape(input[index], &output)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart...]))
        }
    }
}
