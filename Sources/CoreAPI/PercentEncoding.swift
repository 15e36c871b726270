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
        string.withUTF8Bytes { input in
            var runStart = 0
            for index in input.indices where !isAllowed(input[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                runStart = index + 1
                let byte = input[index]
                if spaceAsPlus, byte == UInt8(ascii: " ") {
                    output.append(UInt8(ascii: "+"))
                } else {
                    output.append(UInt8(ascii: "%"))
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart...]))
        }
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
    /// Calls `body` with the string's UTF-8 bytes in contiguous memory (a copy only for a string that
    /// is not stored natively).
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var string = self
        return try string.withUTF8(body)
    }
}
