#if AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOHTTP1
    import Testing

    @testable import CoreAPIAsyncHTTPClient

    /// How the AsyncHTTPClient transport's head reads SwiftNIO's fields in place: one pass for the names
    /// CoreAPI's checks need, the same values as a lookup of each name.
    @Suite struct NIOFieldSourceTests {
        static let fields: HTTPHeaders = [
            "content-length": "10",
            "Set-Cookie": "a=1",
            "CONTENT-LENGTH": "5",
            "Content-Encoding": "gzip",
            "Set-Cookie": "b=2",
        ]

        @Test(
            arguments: [
                (("Content-Length", "Content-Encoding", "Location"), ["10, 5", "gzip", nil]),
                (("set-cookie", "", "content-encoding"), ["a=1, b=2", nil, "gzip"]),
                (("", "", ""), [nil, nil, nil]),
                (("X-Absent", "Content-Length", "Set-Cookie"), [nil, "10, 5", "a=1, b=2"]),
            ] as [((String, String, String), [String?])]
        )
        func onePassFindsWhatEachLookupFinds(names: (String, String, String), expected: [String?]) {
            let source = NIOFieldSource(fields: Self.fields)
            let values = source.values(of: names)
            #expect([values.0, values.1, values.2] == expected)
            for (name, value) in zip([names.0, names.1, names.2], expected) where !name.isEmpty {
                #expect(source.value(of: name) == value)
            }
        }

        @Test func theHeadsChecksReadTheFieldsInPlace() {
            let head = ResponseHead(
                status: .ok,
                fieldSource: NIOFieldSource(fields: Self.fields),
                url: URL(string: "https://api.test/")!
            )
            let checks = HeadChecks(head)
            #expect(checks.contentLength == "10, 5")
            #expect(checks.hasInvalidContentLength)
            #expect(checks.contentEncoding == "gzip")
            #expect(!checks.isRedirect)
            #expect(head.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        }
    }
#endif
