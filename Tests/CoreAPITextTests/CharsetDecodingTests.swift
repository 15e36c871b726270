import CoreAPIText
import Foundation
import Testing

@Suite struct CharsetDecodingTests {
    @Test(arguments: [
        (Charset.utf8, [0x50, 0x72, 0x69, 0x76, 0x65, 0x74], "Privet"),
        (.utf8, [0xD0, 0x9F, 0xD1, 0x80, 0xD0, 0xB8], "При"),
        (.utf8, [0xEF, 0xBB, 0xBF, 0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
        (.utf8, [0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80], "€😀"),
        (.utf8, [], ""),
        (.windows1251, [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        (.koi8R, [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        (.windows1252, [0x80], "€"),
        (.windows1252, [0x63, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x71, 0x94], "café “q”"),
        (.isoLatin9, [0xA4], "€"),
        (.isoLatin9, [0x63, 0x61, 0x66, 0xE9], "café"),
        (.isoLatin1, [0x63, 0x61, 0x66, 0xE9], "café"),
        (.isoLatin1, [0xA4], "¤"),
        (.usASCII, [0x68, 0x69, 0x0A, 0x7F], "hi\n\u{7F}"),
    ])
    func decodesKnownBytes(charset: Charset, bytes: [UInt8], expected: String) {
        #expect(charset.decode(Data(bytes)) == expected)
    }

    @Test(arguments: [
        // "Hi€" and "𝄞" (a surrogate pair).
        (Charset.utf16, [0x00, 0x48, 0x00, 0x69, 0x20, 0xAC], "Hi€"),
        (.utf16, [0xFE, 0xFF, 0x00, 0x48, 0x00, 0x69, 0x20, 0xAC], "Hi€"),
        (.utf16, [0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00, 0xAC, 0x20], "Hi€"),
        (.utf16, [0xD8, 0x34, 0xDD, 0x1E], "𝄞"),
        (.utf16, [0xFF, 0xFE, 0x34, 0xD8, 0x1E, 0xDD], "𝄞"),
        (.utf16, [0xFE, 0xFF], ""),
        (.utf16BigEndian, [0x00, 0x48, 0x00, 0x69, 0x20, 0xAC], "Hi€"),
        (.utf16BigEndian, [0xFE, 0xFF, 0x00, 0x48, 0x00, 0x69], "Hi"),
        (.utf16BigEndian, [0xD8, 0x34, 0xDD, 0x1E], "𝄞"),
        (.utf16LittleEndian, [0x48, 0x00, 0x69, 0x00, 0xAC, 0x20], "Hi€"),
        (.utf16LittleEndian, [0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00], "Hi"),
        (.utf16LittleEndian, [0x34, 0xD8, 0x1E, 0xDD], "𝄞"),
        (.utf16LittleEndian, [], ""),
    ])
    func decodesUTF16(charset: Charset, bytes: [UInt8], expected: String) {
        #expect(charset.decode(Data(bytes)) == expected)
    }

    @Test func aByteOrderMarkIsDroppedOnlyAtTheStart() {
        #expect(Charset.utf8.decode(Data([0x41, 0xEF, 0xBB, 0xBF])) == "A\u{FEFF}")
        #expect(Charset.utf16.decode(Data([0x00, 0x41, 0xFE, 0xFF])) == "A\u{FEFF}")
    }

    @Test func decodesADataSliceWithANonZeroStartIndex() {
        let data = Data([0x00, 0xCF, 0xF0, 0xE8])
        #expect(Charset.windows1251.decode(data.dropFirst()) == "При")
        #expect(Charset.utf16.decode(Data([0xFF, 0x00, 0x41]).dropFirst()) == "A")
    }

    @Test(arguments: [
        (Charset.utf8, [0xC3]),  // truncated sequence
        (.utf8, [0x41, 0xFF]),  // never valid in UTF-8
        (.utf8, [0xC0, 0xAF]),  // overlong "/"
        (.utf8, [0xED, 0xA0, 0x80]),  // encoded surrogate
        (.utf8, [0xF4, 0x90, 0x80, 0x80]),  // above U+10FFFF
        (.utf8, [0x80, 0x41]),  // lone continuation byte
        (.utf16, [0x00, 0x48, 0x00]),  // odd length
        (.utf16, [0xD8, 0x34]),  // unpaired high surrogate
        (.utf16, [0xDC, 0x00, 0x00, 0x41]),  // unpaired low surrogate
        (.utf16LittleEndian, [0x48]),
        (.utf16LittleEndian, [0x41, 0x00, 0x34, 0xD8]),
        (.utf16BigEndian, [0xFE, 0xFF, 0x00]),
        (.usASCII, [0x80]),
        (.usASCII, [0x41, 0xFF]),
    ])
    func rejectsInvalidBytes(charset: Charset, bytes: [UInt8]) {
        #expect(charset.decode(Data(bytes)) == nil)
    }

    @Test(arguments: [nil, "", "x-unknown", "utf-32", "\"\"", "text/plain"] as [String?])
    func anUnknownOrMissingCharsetDecodesAsUTF8(ianaName: String?) {
        #expect(Charset.decode(Data([0xD0, 0x9F, 0xC3, 0xA9]), ianaName: ianaName) == "Пé")
        #expect(Charset.decode(Data([0xCF, 0xF0]), ianaName: ianaName) == nil)
    }

    @Test func staticDecodeUsesTheNamedCharset() {
        let bytes = Data([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2])
        #expect(Charset.decode(bytes, ianaName: "CP1251") == "Привет")
        #expect(Charset.decode(bytes, ianaName: "\"koi8-r\"") == "оПХБЕР")
        #expect(Charset.decode(bytes, ianaName: "latin1") == "Ïðèâåò")
    }

    @Test(arguments: [
        (
            Charset.utf8, "Привет €",
            [0xD0, 0x9F, 0xD1, 0x80, 0xD0, 0xB8, 0xD0, 0xB2, 0xD0, 0xB5, 0xD1, 0x82, 0x20, 0xE2, 0x82, 0xAC]
        ),
        (.utf16, "A€", [0x00, 0x41, 0x20, 0xAC]),
        (.utf16BigEndian, "𝄞", [0xD8, 0x34, 0xDD, 0x1E]),
        (.utf16LittleEndian, "𝄞", [0x34, 0xD8, 0x1E, 0xDD]),
        (.windows1251, "Привет", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]),
        (.koi8R, "Привет", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]),
        (.windows1252, "€ café", [0x80, 0x20, 0x63, 0x61, 0x66, 0xE9]),
        (.isoLatin9, "€ café", [0xA4, 0x20, 0x63, 0x61, 0x66, 0xE9]),
        (.isoLatin1, "café", [0x63, 0x61, 0x66, 0xE9]),
        (.usASCII, "plain", [0x70, 0x6C, 0x61, 0x69, 0x6E]),
    ])
    func encodesAndRoundTrips(charset: Charset, text: String, bytes: [UInt8]) {
        #expect(charset.encode(text) == Data(bytes))
        #expect(charset.decode(Data(bytes)) == text)
    }

    @Test(arguments: [
        (Charset.usASCII, "café"), (.isoLatin1, "€"), (.isoLatin9, "¤"), (.windows1251, "é"),
        (.windows1252, "Я"), (.koi8R, "€"), (.koi8R, "😀"),
    ])
    func encodingUnrepresentableTextFails(charset: Charset, text: String) {
        #expect(charset.encode(text) == nil)
    }
}
