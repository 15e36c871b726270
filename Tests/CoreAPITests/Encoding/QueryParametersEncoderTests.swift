import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Address: Encodable, Sendable {
    var zip: String
    var city: String
}

private struct User: Encodable, Sendable {
    var name: String
    var address: Address
}

private struct Nested: Encodable, Sendable {
    var user: User
    var page: Int
}

private struct Tags: Encodable, Sendable {
    var tags: [String]
    var id: Int
}

private struct Gaps: Encodable, Sendable {
    var values: [Int?]
}

private struct Item: Encodable, Sendable {
    var n: Int
    var label: String
}

private struct Items: Encodable, Sendable {
    var items: [Item]
}

private struct Matrix: Encodable, Sendable {
    var rows: [[Int]]
}

private struct Flags: Encodable, Sendable {
    var on: Bool
    var off: Bool
}

private struct When: Encodable, Sendable {
    var at: Date
}

private struct Optionals: Encodable, Sendable {
    var a: String?
    var b: Int?
    var c: String
    var d: [String]?
}

private struct AllNil: Encodable, Sendable {
    var a: String?
    var b: Int?
}

private struct Text: Encodable, Sendable {
    var text: String
}

private struct Number: Encodable, Sendable {
    var value: Double
}

private struct SingleFloat: Encodable, Sendable {
    var value: Float
}

private struct Integers: Encodable, Sendable {
    var big: Int64
    var negative: Int
    var small: UInt8
}

private struct Home: Encodable, Sendable {
    var postCode: String
    var streetName: String
}

private struct Keys: Encodable, Sendable {
    var userID: Int
    var firstName: String
    var urlValue: String
    var homeAddress: Home
    var plain: Int
}

private struct Login: Encodable, Sendable {
    var user: String
    var token: String
    var remember: Bool

    enum CodingKeys: String, CodingKey {
        case user, token, remember
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(remember, forKey: .remember)
    }
}

private struct Search: Encodable, Sendable {
    var q: String
    var page: Int
}

private struct Nothing: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {}
}

private let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.123)

private let sampleKeys = Keys(
    userID: 7,
    firstName: "Ann",
    urlValue: "u",
    homeAddress: Home(postCode: "1", streetName: "s"),
    plain: 0
)

/// One query-string vector: parameters, an encoder and the exact output.
private struct QueryVector: Sendable, CustomTestStringConvertible {
    var name: String
    var parameters: any Encodable & Sendable
    var encoder = QueryParametersEncoder()
    var expected: String

    var testDescription: String { name }
}

@Suite struct QueryParametersEncoderTests {
    private static func encodingReason(_ error: ApiError?) -> String? {
        if case .invalidRequest(.encoding(let text)) = error { text } else { nil }
    }

    private static let vectors: [QueryVector] = [
        QueryVector(
            name: "nested objects, keys sorted at every level",
            parameters: Nested(user: User(name: "Ann Lee", address: Address(zip: "75001", city: "Paris")), page: 2),
            expected:
                "page=2&user%5Baddress%5D%5Bcity%5D=Paris&user%5Baddress%5D%5Bzip%5D=75001&user%5Bname%5D=Ann%20Lee"
        ),
        QueryVector(
            name: "brackets arrays",
            parameters: Tags(tags: ["a", "b,c"], id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .brackets),
            expected: "id=1&tags%5B%5D=a&tags%5B%5D=b%2Cc"
        ),
        QueryVector(
            name: "repeated-key arrays",
            parameters: Tags(tags: ["a", "b,c"], id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .repeatedKey),
            expected: "id=1&tags=a&tags=b%2Cc"
        ),
        QueryVector(
            name: "comma-separated arrays escape commas inside values",
            parameters: Tags(tags: ["a", "b,c", "d e"], id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .commaSeparated),
            expected: "id=1&tags=a,b%2Cc,d%20e"
        ),
        QueryVector(
            name: "indexed arrays",
            parameters: Tags(tags: ["a", "b,c"], id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .indexed),
            expected: "id=1&tags%5B0%5D=a&tags%5B1%5D=b%2Cc"
        ),
        QueryVector(
            name: "indexed arrays keep element order past ten",
            parameters: Tags(tags: (0...10).map(String.init), id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .indexed),
            expected: "id=1&" + (0...10).map { "tags%5B\($0)%5D=\($0)" }.joined(separator: "&")
        ),
        QueryVector(
            name: "nil elements are dropped (brackets)",
            parameters: Gaps(values: [1, nil, 2, nil]),
            expected: "values%5B%5D=1&values%5B%5D=2"
        ),
        QueryVector(
            name: "nil elements are dropped before indexing",
            parameters: Gaps(values: [nil, 1, nil, 2]),
            encoder: QueryParametersEncoder(arrayEncoding: .indexed),
            expected: "values%5B0%5D=1&values%5B1%5D=2"
        ),
        QueryVector(
            name: "nil elements are dropped (comma-separated)",
            parameters: Gaps(values: [1, nil, 2]),
            encoder: QueryParametersEncoder(arrayEncoding: .commaSeparated),
            expected: "values=1,2"
        ),
        QueryVector(
            name: "an array of only nil elements is dropped",
            parameters: Gaps(values: [nil, nil]),
            encoder: QueryParametersEncoder(arrayEncoding: .commaSeparated),
            expected: ""
        ),
        QueryVector(
            name: "empty arrays are dropped (brackets)",
            parameters: Tags(tags: [], id: 1),
            expected: "id=1"
        ),
        QueryVector(
            name: "empty arrays are dropped (comma-separated)",
            parameters: Tags(tags: [], id: 1),
            encoder: QueryParametersEncoder(arrayEncoding: .commaSeparated),
            expected: "id=1"
        ),
        QueryVector(
            name: "arrays of objects with brackets",
            parameters: Items(items: [Item(n: 1, label: "x"), Item(n: 2, label: "y")]),
            expected: "items%5B%5D%5Blabel%5D=x&items%5B%5D%5Bn%5D=1&items%5B%5D%5Blabel%5D=y&items%5B%5D%5Bn%5D=2"
        ),
        QueryVector(
            name: "arrays of objects indexed",
            parameters: Items(items: [Item(n: 1, label: "x"), Item(n: 2, label: "y")]),
            encoder: QueryParametersEncoder(arrayEncoding: .indexed),
            expected: "items%5B0%5D%5Blabel%5D=x&items%5B0%5D%5Bn%5D=1&items%5B1%5D%5Blabel%5D=y&items%5B1%5D%5Bn%5D=2"
        ),
        QueryVector(
            name: "literal booleans",
            parameters: Flags(on: true, off: false),
            encoder: QueryParametersEncoder(boolEncoding: .literal),
            expected: "off=false&on=true"
        ),
        QueryVector(
            name: "numeric booleans",
            parameters: Flags(on: true, off: false),
            encoder: QueryParametersEncoder(boolEncoding: .numeric),
            expected: "off=0&on=1"
        ),
        QueryVector(
            name: "ISO 8601 dates",
            parameters: When(at: fixedDate),
            encoder: QueryParametersEncoder(dateEncoding: .iso8601),
            expected: "at=2023-11-14T22%3A13%3A20Z"
        ),
        QueryVector(
            name: "ISO 8601 dates with fractional seconds",
            parameters: When(at: fixedDate),
            encoder: QueryParametersEncoder(dateEncoding: .iso8601WithFractionalSeconds),
            expected: "at=2023-11-14T22%3A13%3A20.123Z"
        ),
        QueryVector(
            name: "seconds since 1970",
            parameters: When(at: fixedDate),
            encoder: QueryParametersEncoder(dateEncoding: .secondsSince1970),
            expected: "at=1700000000.123"
        ),
        QueryVector(
            name: "whole seconds since 1970",
            parameters: When(at: Date(timeIntervalSince1970: 1_700_000_000)),
            encoder: QueryParametersEncoder(dateEncoding: .secondsSince1970),
            expected: "at=1700000000"
        ),
        QueryVector(
            name: "milliseconds since 1970",
            parameters: When(at: fixedDate),
            encoder: QueryParametersEncoder(dateEncoding: .millisecondsSince1970),
            expected: "at=1700000000123"
        ),
        QueryVector(
            name: "milliseconds round to nearest",
            parameters: When(at: Date(timeIntervalSince1970: 1_700_000_000.1236)),
            encoder: QueryParametersEncoder(dateEncoding: .millisecondsSince1970),
            expected: "at=1700000000124"
        ),
        QueryVector(
            name: "custom dates",
            parameters: When(at: fixedDate),
            encoder: QueryParametersEncoder(dateEncoding: .custom { "day/\(Int($0.timeIntervalSince1970) / 86_400)" }),
            expected: "at=day%2F19675"
        ),
        QueryVector(
            name: "nil values are dropped",
            parameters: Optionals(a: nil, b: 2, c: "x", d: nil),
            expected: "b=2&c=x"
        ),
        QueryVector(
            name: "present optionals are kept",
            parameters: Optionals(a: "y", b: nil, c: "x", d: ["1"]),
            expected: "a=y&c=x&d%5B%5D=1"
        ),
        QueryVector(name: "only nil values give nothing", parameters: AllNil(), expected: ""),
        QueryVector(name: "unicode", parameters: Text(text: "é😀"), expected: "text=%C3%A9%F0%9F%98%80"),
        QueryVector(
            name: "unreserved characters stay",
            parameters: Text(text: "AZaz09-._~"),
            expected: "text=AZaz09-._~"
        ),
        QueryVector(
            name: "other ASCII is escaped",
            parameters: Text(text: "!$'()*,;:@[]"),
            expected: "text=%21%24%27%28%29%2A%2C%3B%3A%40%5B%5D"
        ),
        QueryVector(
            name: "integers",
            parameters: Integers(big: Int64.max, negative: -42, small: 7),
            expected: "big=9223372036854775807&negative=-42&small=7"
        ),
        QueryVector(
            name: "URL values as absolute strings",
            parameters: ["link": URL(string: "https://h/a?b=c")!],
            expected: "link=https%3A%2F%2Fh%2Fa%3Fb%3Dc"
        ),
        QueryVector(
            name: "data values as base64",
            parameters: ["blob": Data([0xFB, 0xFF, 0x00])],
            expected: "blob=%2B%2F8A"
        ),
        QueryVector(
            name: "keys sorted by bytes",
            parameters: ["b": 1, "a": 2, "B": 3, "aa": 4, "_": 5],
            expected: "B=3&_=5&a=2&aa=4&b=1"
        ),
        QueryVector(
            // By bytes, not by `String` order: a decomposed `é` (65 CC 81) comes before `f`.
            name: "non-ASCII keys sorted by their UTF-8 bytes",
            parameters: ["f": 1, "e\u{301}": 2, "\u{E4}": 3, "z": 4, "\u{1F600}": 5],
            expected: "e%CC%81=2&f=1&z=4&%C3%A4=3&%F0%9F%98%80=5"
        ),
        QueryVector(
            name: "nested dictionary keys sorted",
            parameters: ["z": ["y": 1, "x": 2], "a": ["d": 3, "c": 4]],
            expected: "a%5Bc%5D=4&a%5Bd%5D=3&z%5Bx%5D=2&z%5By%5D=1"
        ),
        QueryVector(
            name: "snake_case keys",
            parameters: sampleKeys,
            encoder: QueryParametersEncoder(keyEncoding: .convertToSnakeCase),
            expected:
                "first_name=Ann&home_address%5Bpost_code%5D=1&home_address%5Bstreet_name%5D=s"
                + "&plain=0&url_value=u&user_id=7"
        ),
        QueryVector(
            name: "kebab-case keys",
            parameters: sampleKeys,
            encoder: QueryParametersEncoder(keyEncoding: .convertToKebabCase),
            expected:
                "first-name=Ann&home-address%5Bpost-code%5D=1&home-address%5Bstreet-name%5D=s"
                + "&plain=0&url-value=u&user-id=7"
        ),
        QueryVector(
            name: "custom keys",
            parameters: sampleKeys,
            encoder: QueryParametersEncoder(keyEncoding: .custom { "p." + $0.uppercased() }),
            expected:
                "p.FIRSTNAME=Ann&p.HOMEADDRESS%5Bp.POSTCODE%5D=1&p.HOMEADDRESS%5Bp.STREETNAME%5D=s"
                + "&p.PLAIN=0&p.URLVALUE=u&p.USERID=7"
        ),
        QueryVector(
            name: "default keys are kept",
            parameters: sampleKeys,
            expected:
                "firstName=Ann&homeAddress%5BpostCode%5D=1&homeAddress%5BstreetName%5D=s"
                + "&plain=0&urlValue=u&userID=7"
        ),
        QueryVector(
            name: "custom encode(to:) keeps the token out",
            parameters: Login(user: "ann", token: "SECRET", remember: true),
            expected: "remember=true&user=ann"
        ),
        QueryVector(name: "a value that encodes nothing", parameters: Nothing(), expected: ""),
        QueryVector(name: "an empty dictionary", parameters: [String: String](), expected: ""),
    ]

    @Test(arguments: vectors)
    private func queryStringVectors(vector: QueryVector) throws {
        let query = try vector.encoder.queryString(for: vector.parameters)
        #expect(query == vector.expected)
    }

    @Test(arguments: [
        ("+", "%2B"), ("&", "%26"), ("=", "%3D"), ("?", "%3F"), ("/", "%2F"), ("#", "%23"), ("%", "%25"), (" ", "%20"),
        ("[", "%5B"), ("]", "%5D"), ("\n", "%0A"), ("é", "%C3%A9"),
    ])
    func reservedCharactersAreEscapedInKeysAndValues(character: String, escaped: String) throws {
        let query = try QueryParametersEncoder().queryString(for: ["k\(character)k": "v\(character)v"])
        #expect(query == "k\(escaped)k=v\(escaped)v")
    }

    @Test(arguments: [
        (1.0, "1"), (1.5, "1.5"), (-2.0, "-2"), (0.1, "0.1"), (0.0, "0"), (-0.5, "-0.5"),
        (123_456_789.25, "123456789.25"), (1e20, "1e%2B20"),
    ])
    func doublesAreWrittenWithoutNeedlessFractions(value: Double, expected: String) throws {
        let query = try QueryParametersEncoder().queryString(for: Number(value: value))
        #expect(query == "value=\(expected)")
    }

    @Test(arguments: [(Float(1.5), "1.5"), (Float(0.1), "0.1"), (Float(1.1), "1.1"), (Float(3), "3")])
    func floatsAreWrittenAsTheirShortestText(value: Float, expected: String) throws {
        let query = try QueryParametersEncoder().queryString(for: SingleFloat(value: value))
        #expect(query == "value=\(expected)")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesThrow(value: Double) {
        let error = #expect(throws: ApiError.self) {
            try QueryParametersEncoder().queryString(for: Number(value: value))
        }
        #expect(Self.encodingReason(error)?.hasPrefix("value") == true)
    }

    @Test func nonFiniteDoublesThrowFromEncodeInRequest() throws {
        let request = ApiRequest(url: try #require(URL(string: "https://h/x")))
        let error = #expect(throws: ApiError.self) {
            try QueryParametersEncoder().encode(["value": Double.nan], in: request)
        }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test func topLevelArraysAndScalarsThrow() {
        let values: [any Encodable & Sendable] = [[1, 2], ["a"], "text", 5, true, fixedDate, 1.5]
        for value in values {
            let error = #expect(throws: ApiError.self) { try QueryParametersEncoder().queryString(for: value) }
            #expect(Self.encodingReason(error) != nil, "\(value)")
        }
    }

    @Test func commaSeparatedArraysMustHoldScalars() {
        let encoder = QueryParametersEncoder(arrayEncoding: .commaSeparated)
        let nestedArray = #expect(throws: ApiError.self) { try encoder.queryString(for: Matrix(rows: [[1], [2]])) }
        #expect(Self.encodingReason(nestedArray) != nil)
        let objects = #expect(throws: ApiError.self) {
            try encoder.queryString(for: Items(items: [Item(n: 1, label: "")]))
        }
        #expect(Self.encodingReason(objects) != nil)
    }

    @Test func encodingIsDeterministic() throws {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        let keys = (0..<50).map { "key\($0)" }
        for (index, key) in keys.enumerated() { first[key] = index }
        for (index, key) in keys.enumerated().reversed() { second[key] = index }
        let encoder = QueryParametersEncoder()
        let a = try encoder.queryString(for: first)
        let b = try encoder.queryString(for: first)
        let c = try encoder.queryString(for: second)
        #expect(a == b)
        #expect(a == c)
        #expect(a.hasPrefix("key0=0&key1=1&key10=10&"))
    }

    // MARK: - encode(_:in:)

    private func request(_ url: String, method: HTTPMethod, contentType: String? = nil) throws -> ApiRequest {
        var request = ApiRequest(url: try #require(URL(string: url)))
        request.method = method
        if let contentType { request.headers.set(contentType, for: "Content-Type") }
        return request
    }

    @Test(arguments: [HTTPMethod.get, .head, .delete])
    func queryMethodsPutParametersInTheURLAfterExistingItems(method: HTTPMethod) throws {
        let original = try request("https://h/s?existing=a%2Bb&x", method: method)
        let encoded = try QueryParametersEncoder().encode(Search(q: "x y&z", page: 2), in: original)
        #expect(encoded.url.absoluteString == "https://h/s?existing=a%2Bb&x&page=2&q=x%20y%26z")
        #expect(encoded.body.data == nil)
        #expect(encoded.headers["Content-Type"] == nil)
        #expect(encoded.method.rawValue == method.rawValue)
    }

    @Test(arguments: [
        ("https://h/s", "https://h/s?page=2&q=a"), ("https://h/s?", "https://h/s?page=2&q=a"),
        ("https://h/s#frag", "https://h/s?page=2&q=a#frag"), ("https://h:8080/", "https://h:8080/?page=2&q=a"),
        ("https://h/s?a=1#f", "https://h/s?a=1&page=2&q=a#f"), ("https://h/s#x?y", "https://h/s?page=2&q=a#x?y"),
        ("https://h/a%20b/c", "https://h/a%20b/c?page=2&q=a"), ("http://u:p@h/s?a", "http://u:p@h/s?a&page=2&q=a"),
    ])
    func queryIsAddedToURLs(url: String, expected: String) throws {
        let encoded = try QueryParametersEncoder().encode(Search(q: "a", page: 2), in: try request(url, method: .get))
        #expect(encoded.url.absoluteString == expected)
    }

    /// A URL made relative to a base gets the query on its absolute form, as it is sent.
    @Test func aRelativeURLGetsTheQueryOnItsAbsoluteForm() throws {
        let base = try #require(URL(string: "https://h/v1/"))
        let relative = try #require(URL(string: "items?a=1", relativeTo: base))
        let encoded = try QueryParametersEncoder().encode(
            Search(q: "a", page: 2),
            in: ApiRequest(url: relative)
        )
        #expect(encoded.url.absoluteString == "https://h/v1/items?a=1&page=2&q=a")
    }

    @Test func requestWithoutMethodIsTreatedAsGet() throws {
        let original = ApiRequest(url: try #require(URL(string: "https://h/s")))
        let encoded = try QueryParametersEncoder().encode(Search(q: "a", page: 1), in: original)
        #expect(encoded.url.absoluteString == "https://h/s?page=1&q=a")
        #expect(encoded.body.data == nil)
    }

    @Test func emptyParametersLeaveTheURLAlone() throws {
        let original = try request("https://h/s?a=1", method: .get)
        let encoded = try QueryParametersEncoder().encode(AllNil(), in: original)
        #expect(encoded.url.absoluteString == "https://h/s?a=1")
        #expect(encoded.body.data == nil)
    }

    @Test func emptyParametersOnPostSendNoBodyAndNoContentType() throws {
        let original = try request("https://h/s", method: .post)
        let encoded = try QueryParametersEncoder().encode(AllNil(), in: original)
        #expect(encoded.body.data == nil)
        #expect(encoded.headers["Content-Type"] == nil)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, HTTPMethod(rawValue: "PROPPATCH")])
    func bodyMethodsPutParametersInAFormBody(method: HTTPMethod) throws {
        let original = try request("https://h/s?keep=1", method: method)
        let encoded = try QueryParametersEncoder().encode(Search(q: "x y&z", page: 2), in: original)
        #expect(encoded.url.absoluteString == "https://h/s?keep=1")
        #expect(encoded.body.data == Data("page=2&q=x%20y%26z".utf8))
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func anExistingContentTypeIsKept() throws {
        let original = try request("https://h/s", method: .post, contentType: "application/vnd.custom+form")
        let encoded = try QueryParametersEncoder().encode(Search(q: "a", page: 1), in: original)
        #expect(encoded.headers["Content-Type"] == "application/vnd.custom+form")
        #expect(encoded.body.data == Data("page=1&q=a".utf8))
    }

    @Test func queryStringDestinationOverridesTheMethod() throws {
        let encoder = QueryParametersEncoder(destination: .queryString)
        let encoded = try encoder.encode(Search(q: "a", page: 1), in: try request("https://h/s", method: .post))
        #expect(encoded.url.absoluteString == "https://h/s?page=1&q=a")
        #expect(encoded.body.data == nil)
        #expect(encoded.headers["Content-Type"] == nil)
    }

    @Test func httpBodyDestinationOverridesTheMethod() throws {
        let encoder = QueryParametersEncoder(destination: .httpBody)
        let encoded = try encoder.encode(Search(q: "a", page: 1), in: try request("https://h/s", method: .get))
        #expect(encoded.url.absoluteString == "https://h/s")
        #expect(encoded.body.data == Data("page=1&q=a".utf8))
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test(arguments: [HTTPMethod.get, .post])
    func aSkippedPropertyStaysOutOfTheRequest(method: HTTPMethod) throws {
        let encoded = try QueryParametersEncoder().encode(
            Login(user: "ann", token: "SECRET-TOKEN", remember: false),
            in: try request("https://h/login", method: method)
        )
        let everything =
            encoded.url.absoluteString + String(decoding: encoded.body.data ?? Data(), as: UTF8.self)
        #expect(!everything.contains("SECRET"))
        #expect(!everything.contains("token"))
        #expect(everything.contains("remember=false&user=ann"))
    }

    @Test func staticQueryHasDefaultStrategies() throws {
        let encoder: QueryParametersEncoder = .query
        #expect(encoder.destination == .methodDependent)
        #expect(encoder.format.arrayEncoding == .brackets)
        #expect(encoder.format.boolEncoding == .literal)
        #expect(try encoder.queryString(for: When(at: fixedDate)) == "at=2023-11-14T22%3A13%3A20Z")
    }
}
