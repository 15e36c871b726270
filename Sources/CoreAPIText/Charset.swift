public import Foundation

/// A character set named by an IANA charset label, decoded and encoded in pure Swift.
///
/// CoreFoundation's converters for legacy charsets do not exist on every platform, so this type does
/// not use `String.Encoding`: UTF-8 and UTF-16 go through the standard library, and the single-byte
/// charsets use tables generated from Python's codecs by `Scripts/generate-charset-tables.py`.
///
/// ```swift
/// let charset = Charset(ianaName: "cp1251")  // Charset.windows1251
/// charset?.decode(Data([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]))  // "Привет"
/// Charset.decode(body, ianaName: nil)  // decoded as UTF-8
/// ```
///
/// Labels follow the IANA registry, not the WHATWG Encoding Standard: ``isoLatin1`` and ``usASCII`` are
/// what they say, not windows-1252.
public struct Charset: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    enum Kind: Sendable, Hashable, CaseIterable {
        case utf8, utf16, utf16LittleEndian, utf16BigEndian, usASCII, isoLatin1, isoLatin9
        case windows1251, windows1252, koi8R
    }

    let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// UTF-8; a leading byte order mark is dropped when decoding and never written when encoding.
    public static let utf8 = Charset(.utf8)
    /// UTF-16 with the byte order of its byte order mark, big-endian without one (RFC 2781).
    /// Encoding writes big-endian without a byte order mark.
    public static let utf16 = Charset(.utf16)
    /// UTF-16 little-endian; a leading `FF FE` byte order mark is dropped when decoding.
    public static let utf16LittleEndian = Charset(.utf16LittleEndian)
    /// UTF-16 big-endian; a leading `FE FF` byte order mark is dropped when decoding.
    public static let utf16BigEndian = Charset(.utf16BigEndian)
    /// US-ASCII: bytes `0x00`–`0x7F` only.
    public static let usASCII = Charset(.usASCII)
    /// ISO-8859-1 (Latin-1): each byte is the code point of the same value.
    public static let isoLatin1 = Charset(.isoLatin1)
    /// ISO-8859-15 (Latin-9): Latin-1 with `€`, `Š`, `š`, `Ž`, `ž`, `Œ`, `œ` and `Ÿ`.
    public static let isoLatin9 = Charset(.isoLatin9)
    /// windows-1251, the Windows Cyrillic code page; the undefined byte `0x98` decodes to U+0098.
    public static let windows1251 = Charset(.windows1251)
    /// windows-1252, the Windows Western code page; the undefined bytes `0x81`, `0x8D`, `0x8F`, `0x90` and
    /// `0x9D` decode to the C1 control of the same value, as in the WHATWG Encoding Standard.
    public static let windows1252 = Charset(.windows1252)
    /// KOI8-R, the Russian Cyrillic charset of RFC 1489.
    public static let koi8R = Charset(.koi8R)

    /// Every supported charset.
    public static let allCases: [Charset] = Kind.allCases.map(Charset.init)

    /// The preferred IANA name, for example `UTF-8` or `windows-1251`.
    public var name: String {
        switch kind {
        case .utf8: "UTF-8"
        case .utf16: "UTF-16"
        case .utf16LittleEndian: "UTF-16LE"
        case .utf16BigEndian: "UTF-16BE"
        case .usASCII: "US-ASCII"
        case .isoLatin1: "ISO-8859-1"
        case .isoLatin9: "ISO-8859-15"
        case .windows1251: "windows-1251"
        case .windows1252: "windows-1252"
        case .koi8R: "KOI8-R"
        }
    }

    /// The same text as ``name``.
    public var description: String { name }

    /// The charset with this IANA name or alias, or `nil` when it is not supported.
    ///
    /// Matching ignores case, surrounding whitespace and surrounding quotes, so a `charset` parameter
    /// can be passed as it appears in a `Content-Type` header: `"UTF-8"`, `cp1251`, ` Latin1 `.
    /// - Parameter ianaName: A charset label such as `utf-8`, `latin1` or `x-cp1251`.
    public init?(ianaName: String) {
        var label = ianaName.trimmingCharacters(in: .whitespacesAndNewlines)
        if label.count >= 2, let quote = label.first, quote == "\"" || quote == "'", label.last == quote {
            label = String(label.dropFirst().dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let kind = Self.aliases[label.lowercased()] else { return nil }
        self.init(kind)
    }

    /// Decodes `bytes` with the charset named `ianaName`, or with UTF-8 when the name is `nil`, empty or
    /// unknown.
    /// - Returns: The text, or `nil` when the bytes are not valid in that charset.
    public static func decode(_ bytes: Data, ianaName: String?) -> String? {
        (ianaName.flatMap(Charset.init(ianaName:)) ?? .utf8).decode(bytes)
    }

    /// Decodes `bytes` to text.
    /// - Returns: The text, or `nil` when the bytes are not valid in this charset: malformed UTF-8, an odd
    ///   number of UTF-16 bytes or an unpaired surrogate, or a byte `0x80` or above in US-ASCII. The
    ///   single-byte tables define every byte, so those charsets always succeed.
    public func decode(_ bytes: Data) -> String? {
        let bytes = [UInt8](bytes)
        switch kind {
        case .utf8:
            return Self.decodeUTF8(Self.dropping([0xEF, 0xBB, 0xBF], from: bytes))
        case .utf16:
            if bytes.starts(with: [0xFF, 0xFE]) {
                return Self.decodeUTF16(bytes.dropFirst(2), bigEndian: false)
            }
            return Self.decodeUTF16(Self.dropping([0xFE, 0xFF], from: bytes), bigEndian: true)
        case .utf16LittleEndian:
            return Self.decodeUTF16(Self.dropping([0xFF, 0xFE], from: bytes), bigEndian: false)
        case .utf16BigEndian:
            return Self.decodeUTF16(Self.dropping([0xFE, 0xFF], from: bytes), bigEndian: true)
        case .usASCII:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        case .isoLatin1:
            return String(decoding: bytes.map(UInt16.init), as: UTF16.self)
        case .isoLatin9, .windows1251, .windows1252, .koi8R:
            let table = highTable
            let units = bytes.map { $0 < 0x80 ? UInt16($0) : table[Int($0 - 0x80)] }
            return String(decoding: units, as: UTF16.self)
        }
    }

    /// Encodes `text` in this charset.
    /// - Returns: The bytes, or `nil` when the text has a character this charset cannot represent.
    public func encode(_ text: String) -> Data? {
        switch kind {
        case .utf8:
            return Data(text.utf8)
        case .utf16, .utf16BigEndian:
            return Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        case .utf16LittleEndian:
            return Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        case .usASCII, .isoLatin1, .isoLatin9, .windows1251, .windows1252, .koi8R:
            let limit: UInt32 = kind == .isoLatin1 ? 0x100 : 0x80
            let reverse = Self.reverseTables[kind] ?? [:]
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for scalar in text.unicodeScalars {
                if scalar.value < limit {
                    bytes.append(UInt8(scalar.value))
                } else if let byte = reverse[scalar.value] {
                    bytes.append(byte)
                } else {
                    return nil
                }
            }
            return Data(bytes)
        }
    }
}

extension Charset {
    /// The code points of bytes `0x80`–`0xFF`, for the table-driven charsets only.
    var highTable: [UInt16] {
        switch kind {
        case .isoLatin9: isoLatin9Table
        case .windows1251: windows1251Table
        case .windows1252: windows1252Table
        case .koi8R: koi8RTable
        case .utf8, .utf16, .utf16LittleEndian, .utf16BigEndian, .usASCII, .isoLatin1: []
        }
    }

    /// Code point to byte, for the table-driven charsets.
    static let reverseTables: [Kind: [UInt32: UInt8]] = {
        var tables: [Kind: [UInt32: UInt8]] = [:]
        for charset in allCases where !charset.highTable.isEmpty {
            let pairs = charset.highTable.enumerated().map { (UInt32($0.element), UInt8($0.offset + 0x80)) }
            tables[charset.kind] = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        }
        return tables
    }()

    /// Lowercased IANA names and aliases, plus a few common unregistered spellings.
    static let aliases: [String: Kind] = {
        let names: [Kind: [String]] = [
            .utf8: ["utf-8", "utf8", "csutf8", "unicode-1-1-utf-8"],
            .utf16: ["utf-16", "utf16", "csutf16"],
            .utf16LittleEndian: ["utf-16le", "utf16le", "csutf16le"],
            .utf16BigEndian: ["utf-16be", "utf16be", "csutf16be"],
            .usASCII: [
                "us-ascii", "ascii", "ansi_x3.4-1968", "ansi_x3.4-1986", "iso646-us", "iso_646.irv:1991",
                "iso-ir-6", "us", "cp367", "ibm367", "csascii",
            ],
            .isoLatin1: [
                "iso-8859-1", "iso_8859-1", "iso_8859-1:1987", "iso8859-1", "iso88591", "latin1", "l1",
                "iso-ir-100", "cp819", "ibm819", "csisolatin1",
            ],
            .isoLatin9: [
                "iso-8859-15", "iso_8859-15", "iso8859-15", "iso885915", "latin-9", "latin9", "l9",
                "csiso885915", "csisolatin9",
            ],
            .windows1251: ["windows-1251", "cp1251", "x-cp1251", "cswindows1251"],
            .windows1252: ["windows-1252", "cp1252", "x-cp1252", "cswindows1252"],
            .koi8R: ["koi8-r", "koi8r", "cskoi8r"],
        ]
        var aliases: [String: Kind] = [:]
        for (kind, labels) in names {
            for label in labels {
                aliases[label] = kind
            }
        }
        return aliases
    }()

    /// `bytes` without a leading byte order mark `mark`.
    static func dropping(_ mark: [UInt8], from bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: mark) ? bytes.dropFirst(mark.count) : bytes[...]
    }

    /// Strict UTF-8: the standard library repairs malformed input with U+FFFD, so the text is valid
    /// exactly when it re-encodes to the same bytes.
    static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Strict UTF-16 from bytes in the given order: `nil` for an odd count or an unpaired surrogate.
    static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count.isMultiple(of: 2) else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        let text = String(decoding: units, as: UTF16.self)
        return text.utf16.elementsEqual(units) ? text : nil
    }
}
