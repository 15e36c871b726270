import CoreAPI
import CoreAPIText
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A text model whose ``init(text:)`` accepts only decimal integers.
private struct Count: TextApiResponse, Equatable {
    let value: Int

    init?(text: String) {
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self.value = value
    }
}

@Suite struct TextApiResponseTests {
    static let privet1251 = Data([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2])

    static func response(contentType: String?, statusCode: Int = 200) throws -> ResponseHead {
        let url = try #require(URL(string: "https://api.example.test/greeting"))
        let headers = contentType.map { Headers(["Content-Type": $0]) } ?? Headers()
        return ResponseHead(status: HTTPStatus(statusCode), headers: headers, url: url)
    }

    @Test func decodesTheCharsetOfTheContentType() throws {
        let response = try Self.response(contentType: "text/plain; charset=windows-1251")
        #expect(Charset(response: response) == .windows1251)
        #expect(try String.decodeResponse(response: response, data: Self.privet1251) == "Привет")
        #expect(String.makeResponse(response: response, data: Self.privet1251) == "Привет")
    }

    @Test(arguments: [
        ("text/plain; charset=windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("text/plain; charset=\"KOI8-R\"", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        // The parameter name matches in any case.
        ("text/plain; Charset=windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("TEXT/PLAIN; CHARSET=\"CP1251\"", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("text/plain; format=flowed; charset=latin1", [0x63, 0x61, 0x66, 0xE9], "café"),
        ("text/plain; title=\"a;charset=koi8-r\"; charset=cp1252", [0x80], "€"),
        ("text/csv; charset=utf-16", [0xFF, 0xFE, 0x41, 0x00], "A"),
        ("text/plain; charset=iso-8859-15", [0xA4], "€"),
        ("text/plain", [0xD0, 0x9F], "П"),
        ("text/plain; charset=", [0xD0, 0x9F], "П"),
        ("text/plain; charset=x-mac-cyrillic", [0xD0, 0x9F], "П"),
        ("application/octet-stream", [0xEF, 0xBB, 0xBF, 0x6F, 0x6B], "ok"),
    ])
    func decodesTheBodyWithTheDeclaredCharset(contentType: String, bytes: [UInt8], expected: String) throws {
        let response = try Self.response(contentType: contentType)
        #expect(try String.decodeResponse(response: response, data: Data(bytes)) == expected)
    }

    @Test func usesUTF8WithoutAContentType() throws {
        let response = try Self.response(contentType: nil)
        #expect(Charset(response: response) == .utf8)
        #expect(try String.decodeResponse(response: response, data: Data("Grüße".utf8)) == "Grüße")
    }

    @Test func readsALowercaseHeaderName() throws {
        let url = try #require(URL(string: "https://api.example.test/"))
        let headers = ["content-type": "text/plain; Charset=koi8-r"]
        let response = (ResponseHead(status: HTTPStatus(200), headers: Headers(headers), url: url))
        #expect(Charset(response: response) == .koi8R)
        let bytes = Data([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4])
        #expect(try String.decodeResponse(response: response, data: bytes) == "Привет")
    }

    @Test func invalidBytesThrowTheCharsetName() throws {
        let utf8 = try Self.response(contentType: "text/plain; charset=utf-8")
        #expect(throws: Charset.DecodingError.invalidBytes(charset: "UTF-8")) {
            try String.decodeResponse(response: utf8, data: Self.privet1251)
        }
        let ascii = try Self.response(contentType: "text/plain; charset=ascii")
        #expect(throws: Charset.DecodingError.invalidBytes(charset: "US-ASCII")) {
            try String.decodeResponse(response: ascii, data: Data([0x41, 0xE9]))
        }
        #expect(String.makeResponse(response: ascii, data: Data([0x41, 0xE9])) == nil)
    }

    @Test func aCustomTypeReceivesTheDecodedText() throws {
        let response = try Self.response(contentType: "text/plain; charset=utf-16be")
        let data = Data([0x00, 0x34, 0x00, 0x32, 0x00, 0x0A])
        #expect(try Count.decodeResponse(response: response, data: data) == Count(text: "42"))
        #expect(Count.makeResponse(response: response, data: data)?.value == 42)
    }

    @Test func rejectedTextThrowsTextDecodingError() throws {
        let response = try Self.response(contentType: "text/plain")
        #expect(throws: Charset.DecodingError.rejectedText) {
            try Count.decodeResponse(response: response, data: Data("forty-two".utf8))
        }
        #expect(Count.makeResponse(response: response, data: Data("forty-two".utf8)) == nil)
    }

    @Test func processTurnsTheErrorIntoAMappingFailureWithItsCause() throws {
        let response = try Self.response(contentType: "text/plain; charset=us-ascii")
        let result = String.process(response: response, data: Data([0xFF]), error: nil)
        guard case .failure(let error) = result, case .mapping(let failure)? = error as? ApiError else {
            Issue.record("expected a mapping error, got \(result)")
            return
        }
        #expect(failure.typeName == "String")
        #expect(failure.statusCode == 200)
        #expect(failure.cause as? Charset.DecodingError == .invalidBytes(charset: "US-ASCII"))

        let rejected = Count.process(response: response, data: Data("many".utf8), error: nil)
        guard case .failure(let rejection) = rejected, case .mapping(let mapping)? = rejection as? ApiError else {
            Issue.record("expected a mapping error, got \(rejected)")
            return
        }
        #expect(mapping.cause as? Charset.DecodingError == .rejectedText)
    }

    @Test func processSucceedsForAnAcceptedStatus() throws {
        let response = try Self.response(contentType: "text/plain; charset=koi8-r")
        let result = String.process(response: response, data: Data([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]), error: nil)
        #expect(try result.get() == "Привет")
    }

    @Test func errorDescriptionsNameTheProblemWithoutTheBody() {
        #expect(
            Charset.DecodingError.invalidBytes(charset: "KOI8-R").description == "the body is not valid KOI8-R text"
        )
        #expect(Charset.DecodingError.rejectedText.description.contains("init?(text:)"))
        #expect(
            Charset.DecodingError.rejectedText.localizedDescription == Charset.DecodingError.rejectedText.description
        )
    }

    @Test func stringInitReturnsTheText() {
        #expect(String(text: "as is") == "as is")
    }
}
