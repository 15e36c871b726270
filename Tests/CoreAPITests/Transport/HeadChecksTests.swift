import CoreAPI
import Foundation
import Testing

/// The fields ``HeadChecks`` reads from a head, found in one pass over its fields: any ASCII case,
/// repeated fields joined with `", "` as the `Headers` subscript joins them, `Location` only for a status
/// a redirect has.
@Suite struct HeadChecksTests {
    private static let url = URL(string: "https://api.test/x")!

    struct Case: Sendable, CustomTestStringConvertible {
        let status: Int
        let fields: [Headers.Field]
        let contentLength: String?
        let contentEncoding: String?
        let isRedirect: Bool
        var testDescription: String { "\(status) \(fields.map { "\($0.name): \($0.value)" })" }
    }

    static let cases: [Case] = [
        Case(status: 200, fields: [], contentLength: nil, contentEncoding: nil, isRedirect: false),
        Case(
            status: 200,
            fields: [.init(name: "content-length", value: "10"), .init(name: "CONTENT-ENCODING", value: "gzip")],
            contentLength: "10",
            contentEncoding: "gzip",
            isRedirect: false
        ),
        Case(
            status: 200,
            fields: [
                .init(name: "Content-Length", value: "10"), .init(name: "Server", value: "x"),
                .init(name: "content-length", value: "5"),
            ],
            contentLength: "10, 5",
            contentEncoding: nil,
            isRedirect: false
        ),
        Case(
            status: 302,
            fields: [.init(name: "location", value: "/next"), .init(name: "Content-Type", value: "text/plain")],
            contentLength: nil,
            contentEncoding: nil,
            isRedirect: true
        ),
        Case(
            status: 200,
            fields: [.init(name: "Location", value: "/next")],
            contentLength: nil,
            contentEncoding: nil,
            isRedirect: false
        ),
        // Names of the same length as a checked one but another spelling are not it.
        Case(
            status: 307,
            fields: [.init(name: "Locatiox", value: "/next"), .init(name: "Content-Lengthy", value: "3")],
            contentLength: nil,
            contentEncoding: nil,
            isRedirect: false
        ),
    ]

    @Test(arguments: cases)
    func readsTheCheckedFieldsInOnePass(_ check: Case) {
        let head = ResponseHead(status: HTTPStatus(check.status), headers: Headers(check.fields), url: Self.url)
        let checks = HeadChecks(head)
        #expect(checks.contentLength == check.contentLength)
        #expect(checks.contentEncoding == check.contentEncoding)
        #expect(checks.isRedirect == check.isRedirect)
        #expect(checks.hasInvalidContentLength == (check.contentLength == "10, 5"))
    }
}
