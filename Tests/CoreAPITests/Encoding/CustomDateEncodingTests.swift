import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.123)

/// Dates inside are milliseconds since 1970, whatever the encoder says.
private struct Booking: Encodable, Sendable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    var at: Date
}

/// Dates inside are ISO 8601 with milliseconds.
private struct Precise: Encodable, Sendable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .iso8601WithFractionalSeconds }
    var at: Date
    var deeper: Plain
}

private struct Plain: Encodable, Sendable {
    var at: Date
}

private struct Level2: Encodable, Sendable {
    var at: Date
    var dates: [Date]
    var maybe: Date?
    var byName: [String: Date]
}

private struct Level1: Encodable, Sendable {
    var level2: Level2
}

/// Conforming at the top, dates three levels down.
private struct Deep: Encodable, Sendable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    var level1: Level1
}

/// Conforming outer value holding a conforming inner value with another strategy, between siblings.
private struct Outer: Encodable, Sendable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    var before: Date
    var inner: Precise
    var after: Date
}

/// Not conforming: the encoder's strategy applies, except inside `booking`.
private struct Mixed: Encodable, Sendable {
    var at: Date
    var booking: Booking
    var bookings: [Booking]
    var later: Date
}

/// The four CoreAPI parameters encoders, each with one date strategy; the output as text.
private enum EncoderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case json, query, form, multipart

    var testDescription: String { rawValue }

    /// `parameters` encoded with `dateEncoding`. Multipart parts are written `name=value` one a line
    /// after checking the exact body; the other encoders' output is returned as is.
    func encode(_ parameters: any Encodable, dateEncoding: EncodingStrategy.Dates) throws -> String {
        switch self {
        case .json:
            let body = try JSONParametersEncoder(dateEncoding: dateEncoding).body(for: parameters)
            return String(decoding: try #require(body), as: UTF8.self)
        case .query:
            return try QueryParametersEncoder(dateEncoding: dateEncoding).queryString(for: parameters)
        case .form:
            let body = try FormParametersEncoder(dateEncoding: dateEncoding).body(for: parameters)
            return String(decoding: try #require(body), as: UTF8.self)
        case .multipart:
            let body = try #require(try MultipartFormDataEncoder(dateEncoding: dateEncoding).body(for: parameters))
            return try Self.textFields(of: body)
        }
    }

    /// The text fields of a multipart body as `name=value` lines, after checking every byte of the
    /// body's framing.
    private static func textFields(of body: MultipartFormDataEncoder.Body) throws -> String {
        let text = String(decoding: body.data, as: UTF8.self)
        let delimiter = "--\(body.boundary)\r\n"
        let end = "--\(body.boundary)--\r\n"
        try #require(text.hasSuffix(end))
        let parts = text.dropLast(end.count).components(separatedBy: delimiter)
        try #require(parts.first == "")
        var fields: [String] = []
        for part in parts.dropFirst() {
            let prefix = "Content-Disposition: form-data; name=\""
            try #require(part.hasPrefix(prefix) && part.hasSuffix("\r\n"))
            // Unicode scalars, not characters: "\r\n" is one `Character`.
            let rest = String(part.unicodeScalars.dropFirst(prefix.unicodeScalars.count).dropLast(2))
            let pieces = rest.components(separatedBy: "\"\r\n\r\n")
            try #require(pieces.count == 2)
            fields.append("\(pieces[0])=\(pieces[1])")
        }
        return fields.joined(separator: "\n")
    }
}

@Suite struct CustomDateEncodingTests {
    @Test(arguments: [
        (EncoderKind.json, #"{"at":1700000000123}"#),
        (.query, "at=1700000000123"),
        (.form, "at=1700000000123"),
        (.multipart, "at=1700000000123"),
    ])
    private func aConformingModelOverridesTheEncodersStrategy(kind: EncoderKind, expected: String) throws {
        #expect(try kind.encode(Booking(at: fixedDate), dateEncoding: .iso8601) == expected)
        #expect(try kind.encode(Booking(at: fixedDate), dateEncoding: .secondsSince1970) == expected)
    }

    @Test func theMultipartOverrideIsAnExactTextPart() throws {
        let body = try #require(try MultipartFormDataEncoder().body(for: Booking(at: fixedDate)))
        let expected =
            "--\(body.boundary)\r\nContent-Disposition: form-data; name=\"at\"\r\n\r\n1700000000123\r\n--\(body.boundary)--\r\n"
        #expect(body.data == Data(expected.utf8))
    }

    @Test(arguments: [
        (
            EncoderKind.json,
            #"{"level1":{"level2":{"at":1700000000123,"byName":{"k":1700000000123},"dates":[1700000000123,1700000000123],"#
                + #""maybe":1700000000123}}}"#
        ),
        (
            .query,
            "level1%5Blevel2%5D%5Bat%5D=1700000000123&level1%5Blevel2%5D%5BbyName%5D%5Bk%5D=1700000000123"
                + "&level1%5Blevel2%5D%5Bdates%5D%5B%5D=1700000000123&level1%5Blevel2%5D%5Bdates%5D%5B%5D=1700000000123"
                + "&level1%5Blevel2%5D%5Bmaybe%5D=1700000000123"
        ),
        (
            .form,
            "level1%5Blevel2%5D%5Bat%5D=1700000000123&level1%5Blevel2%5D%5BbyName%5D%5Bk%5D=1700000000123"
                + "&level1%5Blevel2%5D%5Bdates%5D%5B%5D=1700000000123&level1%5Blevel2%5D%5Bdates%5D%5B%5D=1700000000123"
                + "&level1%5Blevel2%5D%5Bmaybe%5D=1700000000123"
        ),
        (
            .multipart,
            "level1[level2][at]=1700000000123\nlevel1[level2][dates]=1700000000123\nlevel1[level2][dates]=1700000000123"
                + "\nlevel1[level2][maybe]=1700000000123\nlevel1[level2][byName][k]=1700000000123"
        ),
    ])
    private func theOverrideAppliesAtAnyDepth(kind: EncoderKind, expected: String) throws {
        let deep = Deep(
            level1: Level1(
                level2: Level2(
                    at: fixedDate,
                    dates: [fixedDate, fixedDate],
                    maybe: fixedDate,
                    byName: ["k": fixedDate]
                )
            )
        )
        #expect(try kind.encode(deep, dateEncoding: .iso8601) == expected)
    }

    @Test(arguments: [
        (
            EncoderKind.json,
            #"{"after":1700000000123,"before":1700000000123,"#
                + #""inner":{"at":"2023-11-14T22:13:20.123Z","deeper":{"at":"2023-11-14T22:13:20.123Z"}}}"#
        ),
        (
            .query,
            "after=1700000000123&before=1700000000123&inner%5Bat%5D=2023-11-14T22%3A13%3A20.123Z"
                + "&inner%5Bdeeper%5D%5Bat%5D=2023-11-14T22%3A13%3A20.123Z"
        ),
        (
            .form,
            "after=1700000000123&before=1700000000123&inner%5Bat%5D=2023-11-14T22%3A13%3A20.123Z"
                + "&inner%5Bdeeper%5D%5Bat%5D=2023-11-14T22%3A13%3A20.123Z"
        ),
        (
            .multipart,
            "before=1700000000123\ninner[at]=2023-11-14T22:13:20.123Z\ninner[deeper][at]=2023-11-14T22:13:20.123Z"
                + "\nafter=1700000000123"
        ),
    ])
    private func theClosestConformingValueWins(kind: EncoderKind, expected: String) throws {
        let outer = Outer(
            before: fixedDate,
            inner: Precise(at: fixedDate, deeper: Plain(at: fixedDate)),
            after: fixedDate
        )
        #expect(try kind.encode(outer, dateEncoding: .secondsSince1970) == expected)
    }

    @Test(arguments: [
        (
            EncoderKind.json,
            #"{"at":1700000000.123,"booking":{"at":1700000000123},"bookings":[{"at":1700000000123}],"#
                + #""later":1700000000.123}"#
        ),
        (
            .query,
            "at=1700000000.123&booking%5Bat%5D=1700000000123&bookings%5B%5D%5Bat%5D=1700000000123&later=1700000000.123"
        ),
        (
            .form,
            "at=1700000000.123&booking%5Bat%5D=1700000000123&bookings%5B%5D%5Bat%5D=1700000000123&later=1700000000.123"
        ),
        (
            .multipart,
            "at=1700000000.123\nbooking[at]=1700000000123\nbookings[at]=1700000000123\nlater=1700000000.123"
        ),
    ])
    private func siblingsOfAConformingValueKeepTheEncodersStrategy(kind: EncoderKind, expected: String) throws {
        let mixed = Mixed(
            at: fixedDate,
            booking: Booking(at: fixedDate),
            bookings: [Booking(at: fixedDate)],
            later: fixedDate
        )
        #expect(try kind.encode(mixed, dateEncoding: .secondsSince1970) == expected)
    }

    @Test(arguments: [
        (EncoderKind.json, EncodingStrategy.Dates.iso8601, #"{"at":"2023-11-14T22:13:20Z"}"#),
        (.json, .iso8601WithFractionalSeconds, #"{"at":"2023-11-14T22:13:20.123Z"}"#),
        (.json, .secondsSince1970, #"{"at":1700000000.123}"#),
        (.json, .millisecondsSince1970, #"{"at":1700000000123}"#),
        (.query, .iso8601, "at=2023-11-14T22%3A13%3A20Z"),
        (.query, .iso8601WithFractionalSeconds, "at=2023-11-14T22%3A13%3A20.123Z"),
        (.query, .secondsSince1970, "at=1700000000.123"),
        (.query, .millisecondsSince1970, "at=1700000000123"),
        (.form, .iso8601, "at=2023-11-14T22%3A13%3A20Z"),
        (.form, .iso8601WithFractionalSeconds, "at=2023-11-14T22%3A13%3A20.123Z"),
        (.form, .secondsSince1970, "at=1700000000.123"),
        (.form, .millisecondsSince1970, "at=1700000000123"),
        (.multipart, .iso8601, "at=2023-11-14T22:13:20Z"),
        (.multipart, .iso8601WithFractionalSeconds, "at=2023-11-14T22:13:20.123Z"),
        (.multipart, .secondsSince1970, "at=1700000000.123"),
        (.multipart, .millisecondsSince1970, "at=1700000000123"),
    ])
    private func theEncodersStrategyAppliesToModelsThatDoNotConform(
        kind: EncoderKind,
        strategy: EncodingStrategy.Dates,
        expected: String
    ) throws {
        #expect(try kind.encode(Plain(at: fixedDate), dateEncoding: strategy) == expected)
    }

    @Test(arguments: EncoderKind.allCases)
    private func aCustomOverrideIsUsedAsText(kind: EncoderKind) throws {
        struct Day: Encodable, EncodingStrategy.CustomDate {
            static var dateEncoding: EncodingStrategy.Dates {
                .custom { "day \(Int($0.timeIntervalSince1970) / 86_400)" }
            }
            var at: Date
        }
        let expected =
            switch kind {
            case .json: #"{"at":"day 19675"}"#
            case .query: "at=day%2019675"
            case .form: "at=day+19675"
            case .multipart: "at=day 19675"
            }
        #expect(try kind.encode(Day(at: fixedDate), dateEncoding: .millisecondsSince1970) == expected)
    }
}
