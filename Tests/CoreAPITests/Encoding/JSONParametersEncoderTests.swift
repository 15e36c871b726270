import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Profile: Encodable, Sendable {
    var url: URL
    var name: String
    var b: Int
    var a: String
    var nested: [String: Int]
}

private struct Stamp: Encodable, Sendable {
    var at: Date
}

private struct Home: Encodable, Sendable {
    var postCode: String
}

private struct Keys: Encodable, Sendable {
    var userID: Int
    var firstName: String
    var homeAddress: Home
}

private struct Optionals: Encodable, Sendable {
    var a: String?
    var b: Int?
    var c: String
}

private struct AllNil: Encodable, Sendable {
    var a: String?
}

private struct Empty: Encodable, Sendable {}

private struct Nothing: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {}
}

private struct Number: Encodable, Sendable {
    var value: Double
}

/// An order line with a price, for coding-path checks.
struct PricedLine: Encodable, Sendable {
    var price: Double
}

/// Lines and totals, for coding-path checks.
struct PricedOrder: Encodable, Sendable {
    var lines: [PricedLine]
    var totals: [Double]
}

private struct Login: Encodable, Sendable {
    var user: String
    var token: String

    enum CodingKeys: String, CodingKey {
        case user, token
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
    }
}

private let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.123)

/// Writes `a` with `encodeNil(forKey:)` and `b` as `Optional.none`; `c` only when present.
private struct ExplicitNil: Encodable, Sendable {
    var c: Int?

    enum CodingKeys: String, CodingKey {
        case a, b, c
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .a)
        try container.encode(Int?.none, forKey: .b)
        try container.encodeIfPresent(c, forKey: .c)
    }
}

private struct OptionalElements: Encodable, Sendable {
    var values: [Int?]
    var names: [String?]
}

private struct Blob: Encodable, Sendable {
    var blob: Data
}

private struct WithAttachment: Encodable, Sendable {
    var title: String
    var file: CoreAPI.Attachment
}

private struct WithAttachments: Encodable, Sendable {
    var files: [CoreAPI.Attachment]
}

private struct NestedAttachment: Encodable, Sendable {
    var inner: WithAttachment
}

@Suite struct JSONParametersEncoderTests {
    private static func encodingReason(_ error: ApiError?) -> String? {
        if case .invalidRequest(.encoding(let text)) = error { text } else { nil }
    }

    private func request(_ method: HTTPMethod?, contentType: String? = nil) throws -> ApiRequest {
        var request = ApiRequest(url: try #require(URL(string: "https://h/x?keep=1")))
        if let method { request.method = method }
        if let contentType { request.headers.set(contentType, for: "Content-Type") }
        return request
    }

    private func text(_ data: Data?) -> String? {
        data.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func bodyHasSortedKeysAndUnescapedSlashes() throws {
        let profile = Profile(
            url: try #require(URL(string: "https://h/a/b")),
            name: "x/y é",
            b: 1,
            a: "q\"",
            nested: ["z": 1, "m": 2]
        )
        let encoded = try JSONParametersEncoder().encode(profile, in: try request(.post))
        let expected = #"{"a":"q\"","b":1,"name":"x/y é","nested":{"m":2,"z":1},"url":"https://h/a/b"}"#
        #expect(text(encoded.body.data) == expected)
        #expect(encoded.headers["Content-Type"] == "application/json")
        #expect(encoded.url.absoluteString == "https://h/x?keep=1")
    }

    @Test func bodyIsDeterministic() throws {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        for index in 0..<40 { first["k\(index)"] = index }
        for index in (0..<40).reversed() { second["k\(index)"] = index }
        let encoder = JSONParametersEncoder()
        let a = try #require(try encoder.body(for: first))
        #expect(try encoder.body(for: first) == a)
        #expect(try encoder.body(for: second) == a)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func bodyMethodsGetAJSONBody(method: HTTPMethod) throws {
        let encoded = try JSONParametersEncoder().encode(["k": "v"], in: try request(method))
        #expect(text(encoded.body.data) == #"{"k":"v"}"#)
        #expect(encoded.headers["Content-Type"] == "application/json")
    }

    @Test func anExistingContentTypeIsKept() throws {
        let encoded = try JSONParametersEncoder().encode(
            ["k": "v"],
            in: try request(.post, contentType: "application/merge-patch+json")
        )
        #expect(encoded.headers["Content-Type"] == "application/merge-patch+json")
        #expect(text(encoded.body.data) == #"{"k":"v"}"#)
    }

    @Test func theConfiguredContentTypeIsUsed() throws {
        let encoder = JSONParametersEncoder(contentType: "application/vnd.api+json")
        let encoded = try encoder.encode(["k": 1], in: try request(.post))
        #expect(encoded.headers["Content-Type"] == "application/vnd.api+json")
    }

    @Test(arguments: [
        (EncodingStrategy.Dates.iso8601, #"{"at":"2023-11-14T22:13:20Z"}"#),
        (.iso8601WithFractionalSeconds, #"{"at":"2023-11-14T22:13:20.123Z"}"#),
        (.secondsSince1970, #"{"at":1700000000.123}"#),
        (.millisecondsSince1970, #"{"at":1700000000123}"#),
        (.custom { "d/\(Int($0.timeIntervalSince1970))" }, #"{"at":"d/1700000000"}"#),
    ])
    func datesFollowTheStrategy(strategy: EncodingStrategy.Dates, expected: String) throws {
        let encoder = JSONParametersEncoder(dateEncoding: strategy)
        let body = text(try encoder.body(for: Stamp(at: fixedDate)))
        #expect(body == expected)
    }

    @Test(arguments: [
        (EncodingStrategy.Keys.useDefaultKeys, #"{"firstName":"Ann","homeAddress":{"postCode":"1"},"userID":7}"#),
        (.convertToSnakeCase, #"{"first_name":"Ann","home_address":{"post_code":"1"},"user_id":7}"#),
        (.convertToKebabCase, #"{"first-name":"Ann","home-address":{"post-code":"1"},"user-id":7}"#),
        (.custom { "x_" + $0.uppercased() }, #"{"x_FIRSTNAME":"Ann","x_HOMEADDRESS":{"x_POSTCODE":"1"},"x_USERID":7}"#),
    ])
    func keysFollowTheStrategy(strategy: EncodingStrategy.Keys, expected: String) throws {
        let encoder = JSONParametersEncoder(keyEncoding: strategy)
        let keys = Keys(userID: 7, firstName: "Ann", homeAddress: Home(postCode: "1"))
        let body = text(try encoder.body(for: keys))
        #expect(body == expected)
    }

    @Test func nilValuesAreOmitted() throws {
        let body = try JSONParametersEncoder().body(for: Optionals(a: nil, b: 3, c: "x"))
        #expect(text(body) == #"{"b":3,"c":"x"}"#)
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func getAndHeadRejectNonEmptyParameters(method: HTTPMethod) throws {
        let error = #expect(throws: ApiError.self) {
            try JSONParametersEncoder().encode(["k": "v"], in: try request(method))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test func aRequestWithoutMethodIsTreatedAsGet() throws {
        let error = #expect(throws: ApiError.self) {
            try JSONParametersEncoder().encode(["k": "v"], in: try request(nil))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func getAndHeadWithEmptyParametersHaveNoBody(method: HTTPMethod) throws {
        let values: [any Encodable & Sendable] = [Empty(), AllNil(), Nothing(), [String: Int]()]
        for value in values {
            let encoded = try JSONParametersEncoder().encode(value, in: try request(method))
            #expect(encoded.body.data == nil)
            #expect(encoded.headers["Content-Type"] == nil)
            #expect(encoded.url.absoluteString == "https://h/x?keep=1")
        }
    }

    @Test func aValueThatEncodesNothingGivesNoBodyOnPost() throws {
        #expect(try JSONParametersEncoder().body(for: Nothing()) == nil)
        let encoded = try JSONParametersEncoder().encode(Nothing(), in: try request(.post))
        #expect(encoded.body.data == nil)
    }

    @Test func anEmptyObjectOnPostIsAnEmptyJSONObject() throws {
        let encoded = try JSONParametersEncoder().encode(Empty(), in: try request(.post))
        #expect(text(encoded.body.data) == "{}")
        #expect(encoded.headers["Content-Type"] == "application/json")
    }

    @Test func aSkippedPropertyStaysOutOfTheBody() throws {
        let encoded = try JSONParametersEncoder().encode(Login(user: "ann", token: "SECRET"), in: try request(.post))
        #expect(text(encoded.body.data) == #"{"user":"ann"}"#)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesThrowOnPost(value: Double) throws {
        let error = #expect(throws: ApiError.self) {
            try JSONParametersEncoder().encode(Number(value: value), in: try request(.post))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test(arguments: [Double.nan, .infinity])
    func nonFiniteDoublesThrowFromBody(value: Double) {
        let error = #expect(throws: ApiError.self) { try JSONParametersEncoder().body(for: Number(value: value)) }
        #expect(Self.encodingReason(error) != nil)
    }

    /// The error names the full coding path of the value, also inside arrays and nested objects.
    @Test(arguments: [
        (PricedOrder(lines: [PricedLine(price: 1), PricedLine(price: .nan)], totals: []), "lines.1.price: nan"),
        (PricedOrder(lines: [], totals: [2, -.infinity]), "totals.1: -inf"),
    ])
    func nonFiniteDoublesNameTheirCodingPath(order: PricedOrder, path: String) {
        let error = #expect(throws: ApiError.self) { try JSONParametersEncoder().body(for: order) }
        #expect(Self.encodingReason(error) == "\(path) is not a finite number")
    }

    @Test func nonFiniteDoublesThrowOnGet() throws {
        let error = #expect(throws: ApiError.self) {
            try JSONParametersEncoder().encode(Number(value: .nan), in: try request(.get))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    // MARK: - nil, escaping, data and attachments

    @Test func explicitNilIsWrittenAsNull() throws {
        #expect(text(try JSONParametersEncoder().body(for: ExplicitNil(c: 1))) == #"{"a":null,"b":null,"c":1}"#)
        #expect(text(try JSONParametersEncoder().body(for: ExplicitNil(c: nil))) == #"{"a":null,"b":null}"#)
    }

    @Test func explicitNilIsSentOnPost() throws {
        let encoded = try JSONParametersEncoder().encode(ExplicitNil(c: nil), in: try request(.post))
        #expect(text(encoded.body.data) == #"{"a":null,"b":null}"#)
    }

    @Test func nilArrayElementsAreNull() throws {
        let body = try JSONParametersEncoder().body(
            for: OptionalElements(values: [1, nil, 2], names: [nil, "x", nil])
        )
        #expect(text(body) == #"{"names":[null,"x",null],"values":[1,null,2]}"#)
    }

    @Test(arguments: [
        ("\"", #"\""#), ("\\", #"\\"#), ("/", "/"), ("\n", #"\n"#), ("\r", #"\r"#), ("\t", #"\t"#),
        ("\u{8}", #"\b"#), ("\u{C}", #"\f"#), ("\u{0}", #"\u0000"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001f"#),
        ("é", "é"), ("\u{7F}", "\u{7F}"), ("\u{2028}", "\u{2028}"), ("😀", "😀"), ("'<>&", "'<>&"),
    ])
    func stringsAreEscapedExactlyInKeysAndValues(character: String, escaped: String) throws {
        let body = try JSONParametersEncoder().body(for: ["k\(character)k": "v\(character)v"])
        #expect(body == Data(#"{"k\#(escaped)k":"v\#(escaped)v"}"#.utf8))
    }

    /// Keys are sorted by their UTF-8 bytes, not by `String` order: a decomposed `é` (65 CC 81) comes
    /// before `f`, and a key that is a prefix of another before it.
    @Test func keysAreSortedByTheirUTF8Bytes() throws {
        let body = try JSONParametersEncoder().body(
            for: ["f": 1, "e\u{301}": 2, "\u{E4}": 3, "\u{1F600}": 4, "ff": 5, "": 6]
        )
        #expect(text(body) == "{\"\":6,\"e\u{301}\":2,\"f\":1,\"ff\":5,\"\u{E4}\":3,\"\u{1F600}\":4}")
    }

    @Test(arguments: [
        (Data([0xFB, 0xFF, 0x00]), #"{"blob":"+/8A"}"#), (Data("hello".utf8), #"{"blob":"aGVsbG8="}"#),
        (Data(), #"{"blob":""}"#),
    ])
    func dataIsBase64(data: Data, expected: String) throws {
        #expect(text(try JSONParametersEncoder().body(for: Blob(blob: data))) == expected)
    }

    @Test func attachmentsAreEncodingErrors() throws {
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: "a.txt")
        let values: [any Encodable & Sendable] = [
            WithAttachment(title: "t", file: attachment),
            WithAttachments(files: [attachment]),
            NestedAttachment(inner: WithAttachment(title: "t", file: attachment)),
        ]
        for value in values {
            let fromBody = #expect(throws: ApiError.self) { try JSONParametersEncoder().body(for: value) }
            #expect(Self.encodingReason(fromBody) != nil, "\(value)")
            let fromEncode = #expect(throws: ApiError.self) {
                try JSONParametersEncoder().encode(value, in: try request(.post))
            }
            #expect(Self.encodingReason(fromEncode) != nil, "\(value)")
        }
    }
}
