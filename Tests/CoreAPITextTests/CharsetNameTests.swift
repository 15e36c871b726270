import CoreAPIText
import Foundation
import Testing

@Suite struct CharsetNameTests {
    @Test(arguments: [
        ("utf-8", Charset.utf8), ("UTF8", .utf8), ("Utf-8", .utf8),
        ("utf-16", .utf16), ("UTF-16LE", .utf16LittleEndian), ("utf-16be", .utf16BigEndian),
        ("us-ascii", .usASCII), ("ASCII", .usASCII), ("ANSI_X3.4-1968", .usASCII), ("iso646-us", .usASCII),
        ("cp367", .usASCII),
        ("iso-8859-1", .isoLatin1), ("ISO_8859-1", .isoLatin1), ("latin1", .isoLatin1), ("L1", .isoLatin1),
        ("cp819", .isoLatin1), ("IBM819", .isoLatin1),
        ("iso-8859-15", .isoLatin9), ("Latin-9", .isoLatin9), ("l9", .isoLatin9), ("ISO_8859-15", .isoLatin9),
        ("windows-1251", .windows1251), ("CP1251", .windows1251), ("x-cp1251", .windows1251),
        ("Windows-1252", .windows1252), ("cp1252", .windows1252), ("X-CP1252", .windows1252),
        ("koi8-r", .koi8R), ("KOI8-R", .koi8R), ("csKOI8R", .koi8R),
    ])
    func acceptsIANANamesAndAliases(label: String, expected: Charset) {
        #expect(Charset(ianaName: label) == expected)
    }

    @Test(arguments: ["  utf-8\t", "\"UTF-8\"", "'utf-8'", " \" utf-8 \" ", "\nutf-8\r\n"])
    func ignoresWhitespaceAndSurroundingQuotes(label: String) {
        #expect(Charset(ianaName: label) == .utf8)
    }

    @Test(arguments: ["", " ", "\"\"", "utf-32", "utf 8", "latin2", "iso-8859-2", "\"utf-8", "utf-8'", "koi8-u"])
    func rejectsUnknownNames(label: String) {
        #expect(Charset(ianaName: label) == nil)
    }

    @Test(arguments: Charset.allCases)
    func theCanonicalNameParsesBack(charset: Charset) {
        #expect(Charset(ianaName: charset.name) == charset)
        #expect(charset.description == charset.name)
    }

    @Test func canonicalNamesAreThePreferredIANANames() {
        #expect(
            Charset.allCases.map(\.name) == [
                "UTF-8", "UTF-16", "UTF-16LE", "UTF-16BE", "US-ASCII", "ISO-8859-1", "ISO-8859-15",
                "windows-1251", "windows-1252", "KOI8-R",
            ]
        )
    }
}
