import CoreAPIText
import Foundation
import Testing

/// Every byte of every single-byte charset against a table built here from the published charts
/// (Unicode's CP1251.TXT, CP1252.TXT, KOI8-R.TXT and 8859-15.TXT), not from the generated tables.
@Suite struct CharsetTableTests {
    /// Expected code point for each byte 0x00–0xFF, or `nil` when the byte is invalid.
    static func expectedTable(_ charset: Charset) -> [UInt32?] {
        let ascii = (0..<0x80).map { UInt32($0) }
        switch charset {
        case .usASCII:
            return ascii + Array(repeating: nil, count: 0x80)
        case .isoLatin1:
            return (0..<0x100).map { UInt32($0) }
        case .isoLatin9:
            let changes: [Int: UInt32] = [
                0xA4: 0x20AC, 0xA6: 0x0160, 0xA8: 0x0161, 0xB4: 0x017D,
                0xB8: 0x017E, 0xBC: 0x0152, 0xBD: 0x0153, 0xBE: 0x0178,
            ]
            return (0..<0x100).map { changes[$0] ?? UInt32($0) }
        case .windows1252:
            let high: [UInt32] = [
                0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
                0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
            ]
            return ascii + high + (0xA0..<0x100).map { UInt32($0) }
        case .windows1251:
            let high: [UInt32] = [
                0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
                0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
                0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
                0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
                0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
                0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
                0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
            ]
            // 0xC0–0xFF: А–Я then а–я, in alphabetical order.
            return ascii + high + (0x0410..<0x0450).map { UInt32($0) }
        case .koi8R:
            let high: [UInt32] = [
                0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518, 0x251C, 0x2524,
                0x252C, 0x2534, 0x253C, 0x2580, 0x2584, 0x2588, 0x258C, 0x2590,
                0x2591, 0x2592, 0x2593, 0x2320, 0x25A0, 0x2219, 0x221A, 0x2248,
                0x2264, 0x2265, 0x00A0, 0x2321, 0x00B0, 0x00B2, 0x00B7, 0x00F7,
                0x2550, 0x2551, 0x2552, 0x0451, 0x2553, 0x2554, 0x2555, 0x2556,
                0x2557, 0x2558, 0x2559, 0x255A, 0x255B, 0x255C, 0x255D, 0x255E,
                0x255F, 0x2560, 0x2561, 0x0401, 0x2562, 0x2563, 0x2564, 0x2565,
                0x2566, 0x2567, 0x2568, 0x2569, 0x256A, 0x256B, 0x256C, 0x00A9,
            ]
            // 0xC0–0xFF: the Cyrillic letters in KOI8 order, lowercase first.
            let letters = "юабцдефгхийклмнопярстужвьызшэщчъЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЫЗШЭЩЧЪ"
            return ascii + high + letters.unicodeScalars.map(\.value)
        default:
            return []
        }
    }

    static let singleByte: [Charset] = [.usASCII, .isoLatin1, .isoLatin9, .windows1251, .windows1252, .koi8R]

    @Test(arguments: singleByte)
    func everyByteDecodesToThePublishedCodePoint(charset: Charset) throws {
        let expected = Self.expectedTable(charset)
        try #require(expected.count == 256)
        for byte in 0...255 {
            let decoded = charset.decode(Data([UInt8(byte)]))
            let scalar = expected[byte].flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            #expect(decoded == scalar, "\(charset) byte 0x\(String(byte, radix: 16, uppercase: true))")
        }
    }

    @Test(arguments: singleByte)
    func everyDefinedByteRoundTrips(charset: Charset) throws {
        let expected = Self.expectedTable(charset)
        for byte in 0...255 {
            guard let point = expected[byte] else { continue }
            let text = String(Character(try #require(Unicode.Scalar(point))))
            #expect(charset.encode(text) == Data([UInt8(byte)]), "\(charset) U+\(String(point, radix: 16))")
        }
    }

    @Test(arguments: singleByte)
    func wholeTableDecodesInOneCall(charset: Charset) {
        let expected = Self.expectedTable(charset)
        let defined = (0...255).filter { expected[$0] != nil }
        let bytes = Data(defined.map { UInt8($0) })
        let text = String(String.UnicodeScalarView(defined.compactMap { expected[$0].flatMap(Unicode.Scalar.init) }))
        #expect(charset.decode(bytes) == text)
        #expect(charset.encode(text) == bytes)
    }

    @Test(arguments: [
        (Charset.windows1252, 0x81), (.windows1252, 0x8D), (.windows1252, 0x8F), (.windows1252, 0x90),
        (.windows1252, 0x9D), (.windows1251, 0x98),
    ])
    func undefinedBytesDecodeToTheSameValuedC1Control(charset: Charset, byte: Int) {
        #expect(charset.decode(Data([UInt8(byte)]))?.unicodeScalars.map(\.value) == [UInt32(byte)])
    }

    @Test(arguments: [
        (Charset.windows1251, 0xA8, "Ё"), (.windows1251, 0xB9, "№"), (.windows1251, 0xA5, "Ґ"),
        (.windows1252, 0x9F, "Ÿ"), (.windows1252, 0x8A, "Š"), (.windows1252, 0x99, "™"),
        (.koi8R, 0xB3, "Ё"), (.koi8R, 0xA3, "ё"), (.koi8R, 0xFF, "Ъ"), (.koi8R, 0xC0, "ю"),
        (.isoLatin9, 0xBE, "Ÿ"), (.isoLatin9, 0xBC, "Œ"), (.isoLatin1, 0xFF, "ÿ"),
    ])
    func spotChecksFromThePublishedCharts(charset: Charset, byte: Int, expected: String) {
        #expect(charset.decode(Data([UInt8(byte)])) == expected)
    }
}
