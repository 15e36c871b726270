import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Tags: Encodable, Sendable {
    var tags: [String]
    var id: Int
}

private struct Flags: Encodable, Sendable {
    var on: Bool
    var off: Bool
}

private struct When: Encodable, Sendable {
    var at: Date
}

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

private struct Home: Encodable, Sendable {
    var postCode: String
    var streetName: String
}

private struct Keys: Encodable, Sendable {
    var userID: Int
    var firstName: String
    var urlValue: String
    var homeAddress: Home
}

private struct Optionals: Encodable, Sendable {
    var a: String?
    var b: Int?
    var c: String
    var d: [String]?
}

/// Encodes `a` as an explicit `nil` (with `encodeNil(forKey:)`) and `b` as `Optional.none`.
private struct ExplicitNil: Encodable, Sendable {
    var c: String?

    enum CodingKeys: String, CodingKey {
        case a, b, c
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .a)
        try container.encode(Int?.none, forKey: .b)
        try container.encode(c, forKey: .c)
    }
}

private struct AllNil: Encodable, Sendable {
    var a: String?
    var b: Int?
}

private struct Empty: Encodable, Sendable {}

private struct Nothing: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {}
}

/// Declared out of order, so sorting is visible.
private struct Unsorted: Encodable, Sendable {
    var zeta: Int
    var alpha: Int
    var mid: Int
    var Alpha: Int
}

private struct Number: Encodable, Sendable {
    var value: Double
}

private struct Search: Encodable, Sendable {
    var q: String
    var page: Int
}

private struct Upload: Encodable, Sendable {
    var title: String
    var file: CoreAPI.Attachment
}

private struct Uploads: Encodable, Sendable {
    var files: [CoreAPI.Attachment]
}

private struct Blob: Encodable, Sendable {
    var blob: Data
}

private struct Matrix: Encodable, Sendable {
    var rows: [[Int]]
}

private let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.123)

private let sampleKeys = Keys(
    userID: 7,
    firstName: "Ann Lee",
    urlValue: "u",
    homeAddress: Home(postCode: "1", streetName: "s")
)

/// One form-body vector: parameters, an encoder and the exact body.
private struct FormVector: Sendable, CustomTestStringConvertible {
    var name: String
    var parameters: any Encodable & Sendable
    var encoder = FormParametersEncoder()
    var expected: String

    var testDescription: String { name }
}

@Suite struct FormParametersEncoderTests {
    private static func encodingReason(_ error: ApiError?) -> String? {
        if case .invalidRequest(.encoding(let text)) = error { text } else { nil }
    }

    private static let formContentType = "application/x-www-form-urlencoded; charset=utf-8"

    private func request(_ method: HTTPMethod?, contentType: String? = nil) throws -> ApiRequest {
        var request = ApiRequest(url: try #require(URL(string: "https://h/x?keep=1")))
        if let method { request.method = method }
        if let contentType { request.headers.set(contentType, for: "Content-Type") }
        return request
    }

    private func text(_ data: Data?) -> String? {
        data.map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Escaping

    @Test(arguments: [
        ("~", "%7E"), (" ", "+"), ("+", "%2B"), ("&", "%26"), ("=", "%3D"), ("?", "%3F"), ("/", "%2F"),
        ("#", "%23"), ("%", "%25"), (";", "%3B"), ("\"", "%22"), ("é", "%C3%A9"), ("\r\n", "%0D%0A"),
        ("\r", "%0D"), ("\n", "%0A"), ("[", "%5B"), ("]", "%5D"), (",", "%2C"), ("'", "%27"), ("!", "%21"),
        ("(", "%28"), (")", "%29"), (":", "%3A"), ("@", "%40"), ("\t", "%09"), ("\u{0}", "%00"), ("\u{7F}", "%7F"),
        ("😀", "%F0%9F%98%80"), ("*", "*"), ("-", "-"), (".", "."), ("_", "_"),
    ])
    func charactersAreEscapedInKeysAndValues(character: String, escaped: String) throws {
        let body = try FormParametersEncoder().body(for: ["k\(character)k": "v\(character)v"])
        #expect(text(body) == "k\(escaped)k=v\(escaped)v")
    }

    @Test func lettersDigitsAndStarDashDotUnderscoreStayUnescaped() throws {
        let unescaped = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._"
        let body = try FormParametersEncoder().body(for: [unescaped: unescaped])
        #expect(text(body) == "\(unescaped)=\(unescaped)")
    }

    @Test func everyOtherASCIIByteIsPercentEncoded() throws {
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._".utf8)
        for byte in UInt8(0)...UInt8(0x7F) where !kept.contains(byte) && byte != 0x20 {
            let character = String(decoding: [byte], as: UTF8.self)
            let body = try FormParametersEncoder().body(for: ["k": character])
            #expect(text(body) == "k=" + String(format: "%%%02X", Int(byte)), "byte \(byte)")
        }
    }

    @Test(arguments: [
        (QueryString.SpaceEncoding.plus, "a+b=c+d+%2B+e"),
        (.percent20, "a%20b=c%20d%20%2B%20e"),
    ])
    func spacesFollowTheSpaceEncoding(spaces: QueryString.SpaceEncoding, expected: String) throws {
        let body = try FormParametersEncoder(spaceEncoding: spaces).body(for: ["a b": "c d + e"])
        #expect(text(body) == expected)
    }

    @Test(arguments: [QueryString.SpaceEncoding.plus, .percent20])
    func aLiteralPercentTwentyIsNotMistakenForASpace(spaces: QueryString.SpaceEncoding) throws {
        let body = try FormParametersEncoder(spaceEncoding: spaces).body(for: ["k%20": "%20+%2B"])
        #expect(text(body) == "k%2520=%2520%2B%252B")
    }

    // MARK: - Vectors

    private static let vectors: [FormVector] = [
        FormVector(
            name: "brackets arrays (default)",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            expected: "id=1&tags%5B%5D=a&tags%5B%5D=b+c"
        ),
        FormVector(
            name: "repeated-key arrays",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            encoder: FormParametersEncoder(arrayEncoding: .repeatedKey),
            expected: "id=1&tags=a&tags=b+c"
        ),
        FormVector(
            name: "comma-separated arrays escape commas inside values",
            parameters: Tags(tags: ["a", "b,c d"], id: 1),
            encoder: FormParametersEncoder(arrayEncoding: .commaSeparated),
            expected: "id=1&tags=a,b%2Cc+d"
        ),
        FormVector(
            name: "indexed arrays",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            encoder: FormParametersEncoder(arrayEncoding: .indexed),
            expected: "id=1&tags%5B0%5D=a&tags%5B1%5D=b+c"
        ),
        FormVector(
            name: "empty arrays are dropped",
            parameters: Tags(tags: [], id: 1),
            expected: "id=1"
        ),
        FormVector(
            name: "literal booleans (default)",
            parameters: Flags(on: true, off: false),
            expected: "off=false&on=true"
        ),
        FormVector(
            name: "numeric booleans",
            parameters: Flags(on: true, off: false),
            encoder: FormParametersEncoder(boolEncoding: .numeric),
            expected: "off=0&on=1"
        ),
        FormVector(
            name: "ISO 8601 dates (default)",
            parameters: When(at: fixedDate),
            expected: "at=2023-11-14T22%3A13%3A20Z"
        ),
        FormVector(
            name: "ISO 8601 dates with fractional seconds",
            parameters: When(at: fixedDate),
            encoder: FormParametersEncoder(dateEncoding: .iso8601WithFractionalSeconds),
            expected: "at=2023-11-14T22%3A13%3A20.123Z"
        ),
        FormVector(
            name: "seconds since 1970",
            parameters: When(at: fixedDate),
            encoder: FormParametersEncoder(dateEncoding: .secondsSince1970),
            expected: "at=1700000000.123"
        ),
        FormVector(
            name: "milliseconds since 1970",
            parameters: When(at: fixedDate),
            encoder: FormParametersEncoder(dateEncoding: .millisecondsSince1970),
            expected: "at=1700000000123"
        ),
        FormVector(
            name: "custom dates are escaped",
            parameters: When(at: fixedDate),
            encoder: FormParametersEncoder(dateEncoding: .custom { "d/\(Int($0.timeIntervalSince1970)) x" }),
            expected: "at=d%2F1700000000+x"
        ),
        FormVector(
            name: "default keys",
            parameters: sampleKeys,
            expected: "firstName=Ann+Lee&homeAddress%5BpostCode%5D=1&homeAddress%5BstreetName%5D=s&urlValue=u&userID=7"
        ),
        FormVector(
            name: "snake_case keys",
            parameters: sampleKeys,
            encoder: FormParametersEncoder(keyEncoding: .convertToSnakeCase),
            expected:
                "first_name=Ann+Lee&home_address%5Bpost_code%5D=1&home_address%5Bstreet_name%5D=s&url_value=u&user_id=7"
        ),
        FormVector(
            name: "kebab-case keys",
            parameters: sampleKeys,
            encoder: FormParametersEncoder(keyEncoding: .convertToKebabCase),
            expected:
                "first-name=Ann+Lee&home-address%5Bpost-code%5D=1&home-address%5Bstreet-name%5D=s&url-value=u&user-id=7"
        ),
        FormVector(
            name: "custom keys are converted, then escaped",
            parameters: sampleKeys,
            encoder: FormParametersEncoder(keyEncoding: .custom { "p " + $0.uppercased() }),
            expected:
                "p+FIRSTNAME=Ann+Lee&p+HOMEADDRESS%5Bp+POSTCODE%5D=1&p+HOMEADDRESS%5Bp+STREETNAME%5D=s"
                + "&p+URLVALUE=u&p+USERID=7"
        ),
        FormVector(
            name: "nested objects, keys sorted at every level",
            parameters: Nested(user: User(name: "Ann", address: Address(zip: "75001", city: "Paris")), page: 2),
            expected: "page=2&user%5Baddress%5D%5Bcity%5D=Paris&user%5Baddress%5D%5Bzip%5D=75001&user%5Bname%5D=Ann"
        ),
        FormVector(
            name: "keys sorted by UTF-8 bytes, not declaration order",
            parameters: Unsorted(zeta: 1, alpha: 2, mid: 3, Alpha: 4),
            expected: "Alpha=4&alpha=2&mid=3&zeta=1"
        ),
        FormVector(
            name: "dictionary keys sorted by UTF-8 bytes",
            parameters: ["b": 1, "a": 2, "B": 3, "aa": 4, "_": 5, "é": 6],
            expected: "B=3&_=5&a=2&aa=4&b=1&%C3%A9=6"
        ),
        FormVector(
            name: "absent optionals are dropped",
            parameters: Optionals(a: nil, b: 2, c: "x", d: nil),
            expected: "b=2&c=x"
        ),
        FormVector(
            name: "explicit nil is dropped",
            parameters: ExplicitNil(c: "x"),
            expected: "c=x"
        ),
        FormVector(
            name: "nil array elements are dropped",
            parameters: ["v": [1, nil, 2] as [Int?]],
            expected: "v%5B%5D=1&v%5B%5D=2"
        ),
        FormVector(
            name: "data as base64, escaped",
            parameters: Blob(blob: Data([0xFB, 0xFF, 0x00])),
            expected: "blob=%2B%2F8A"
        ),
        FormVector(
            name: "numbers",
            parameters: ["i": -42, "d": 1.5, "w": 2.0, "big": 1e20],
            expected: "big=1e%2B20&d=1.5&i=-42&w=2"
        ),
    ]

    @Test(arguments: vectors)
    private func bodyVectors(vector: FormVector) throws {
        let body = try vector.encoder.body(for: vector.parameters)
        #expect(text(body) == vector.expected)
    }

    @Test(arguments: [
        (EncodingStrategy.Arrays.brackets, "m%5B%5D%5B%5D=1&m%5B%5D%5B%5D=2&m%5B%5D%5B%5D=3"),
        (.indexed, "m%5B0%5D%5B0%5D=1&m%5B0%5D%5B1%5D=2&m%5B1%5D%5B0%5D=3"),
        (.repeatedKey, "m=1&m=2&m=3"),
    ])
    func nestedArraysFollowTheStrategy(strategy: EncodingStrategy.Arrays, expected: String) throws {
        let body = try FormParametersEncoder(arrayEncoding: strategy).body(for: ["m": [[1, 2], [3]]])
        #expect(text(body) == expected)
    }

    @Test func commaSeparatedArraysMustHoldScalars() {
        let encoder = FormParametersEncoder(arrayEncoding: .commaSeparated)
        let error = #expect(throws: ApiError.self) { try encoder.body(for: Matrix(rows: [[1], [2]])) }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test func onlyNilValuesGiveNoBody() throws {
        #expect(try FormParametersEncoder().body(for: AllNil()) == nil)
        #expect(try FormParametersEncoder().body(for: ExplicitNil(c: nil)) == nil)
    }

    @Test func bodyIsDeterministic() throws {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        let keys = (0..<50).map { "key \($0)" }
        for (index, key) in keys.enumerated() { first[key] = index }
        for (index, key) in keys.enumerated().reversed() { second[key] = index }
        let encoder = FormParametersEncoder()
        let a = try #require(try encoder.body(for: first))
        #expect(try encoder.body(for: first) == a)
        #expect(try encoder.body(for: second) == a)
        #expect(text(a)?.hasPrefix("key+0=0&key+1=1&key+10=10&") == true)
        let nested = Nested(user: User(name: "Ann", address: Address(zip: "1", city: "P")), page: 1)
        #expect(try encoder.body(for: nested) == encoder.body(for: nested))
    }

    // MARK: - encode(_:in:)

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, HTTPMethod(rawValue: "PROPPATCH")])
    func bodyMethodsGetAFormBodyAndContentType(method: HTTPMethod) throws {
        let encoded = try FormParametersEncoder().encode(Search(q: "x y&z", page: 2), in: try request(method))
        #expect(text(encoded.body.data) == "page=2&q=x+y%26z")
        #expect(encoded.headers["Content-Type"] == Self.formContentType)
        #expect(encoded.url.absoluteString == "https://h/x?keep=1")
        #expect(encoded.method.rawValue == method.rawValue)
    }

    @Test func percent20EncoderWritesPercent20InTheRequestBody() throws {
        let encoder = FormParametersEncoder(spaceEncoding: .percent20)
        let encoded = try encoder.encode(Search(q: "x y", page: 2), in: try request(.post))
        #expect(text(encoded.body.data) == "page=2&q=x%20y")
    }

    @Test func anExistingContentTypeIsKept() throws {
        let original = try request(.post, contentType: "application/vnd.custom+form")
        let encoded = try FormParametersEncoder().encode(Search(q: "a", page: 1), in: original)
        #expect(encoded.headers["Content-Type"] == "application/vnd.custom+form")
        #expect(text(encoded.body.data) == "page=1&q=a")
    }

    @Test func theConfiguredContentTypeIsUsedWhenAbsent() throws {
        let encoder = FormParametersEncoder(contentType: "application/x-www-form-urlencoded")
        let encoded = try encoder.encode(Search(q: "a", page: 1), in: try request(.post))
        #expect(encoded.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test(arguments: [HTTPMethod.post, .put, .get, .head])
    func emptyParametersLeaveTheRequestUnchanged(method: HTTPMethod) throws {
        let values: [any Encodable & Sendable] = [Empty(), AllNil(), Nothing(), [String: Int](), ExplicitNil(c: nil)]
        let original = try request(method)
        for value in values {
            #expect(try FormParametersEncoder().body(for: value) == nil)
            let encoded = try FormParametersEncoder().encode(value, in: original)
            #expect(encoded == original, "\(value)")
            #expect(encoded.body.data == nil)
            #expect(encoded.headers["Content-Type"] == nil)
        }
    }

    @Test(arguments: [HTTPMethod.get, .head, nil])
    func getAndHeadRejectParameters(method: HTTPMethod?) throws {
        let error = #expect(throws: ApiError.self) {
            try FormParametersEncoder().encode(Search(q: "a", page: 1), in: try request(method))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesAreEncodingErrors(value: Double) throws {
        let fromBody = #expect(throws: ApiError.self) { try FormParametersEncoder().body(for: Number(value: value)) }
        #expect(Self.encodingReason(fromBody)?.hasPrefix("value") == true)
        let fromEncode = #expect(throws: ApiError.self) {
            try FormParametersEncoder().encode(Number(value: value), in: try request(.post))
        }
        #expect(Self.encodingReason(fromEncode) != nil)
    }

    @Test func attachmentsAreEncodingErrors() throws {
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: "a.txt")
        let values: [any Encodable & Sendable] = [
            Upload(title: "t", file: attachment),
            Uploads(files: [attachment]),
            ["outer": ["file": attachment]],
        ]
        for value in values {
            let fromBody = #expect(throws: ApiError.self) { try FormParametersEncoder().body(for: value) }
            #expect(Self.encodingReason(fromBody) != nil, "\(value)")
            let fromEncode = #expect(throws: ApiError.self) {
                try FormParametersEncoder().encode(value, in: try request(.post))
            }
            #expect(Self.encodingReason(fromEncode) != nil, "\(value)")
        }
    }

    @Test func topLevelArraysAndScalarsAreEncodingErrors() {
        let values: [any Encodable & Sendable] = [[1, 2], "text", 5, true]
        for value in values {
            let error = #expect(throws: ApiError.self) { try FormParametersEncoder().body(for: value) }
            #expect(Self.encodingReason(error) != nil, "\(value)")
        }
    }

    @Test func staticFormHasDefaultStrategies() throws {
        let encoder: FormParametersEncoder = .form
        #expect(encoder.contentType == Self.formContentType)
        #expect(encoder.format.arrayEncoding == .brackets)
        #expect(encoder.format.boolEncoding == .literal)
        #expect(encoder.format.escaping == .formURLEncoded(spaces: .plus))
        #expect(text(try encoder.body(for: When(at: fixedDate))) == "at=2023-11-14T22%3A13%3A20Z")
    }
}
