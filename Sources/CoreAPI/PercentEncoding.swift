/// RFC 3986 percent-encoding over UTF-8 bytes.
enum PercentEncoding {
    /// The bytes of `string` that `isAllowed` rejects, percent-encoded with upper-case hex digits.
    static func encode(_ string: String, allowing isAllowed: (UInt8) -> Bool) -> String {
        let utf8 = string.utf8
        guard !utf8.allSatisfy(isAllowed) else { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isAllowed(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
