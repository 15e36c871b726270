#if HTTPTypes
    import CoreAPI
    import CoreAPIHTTPTypes
    import Foundation
    import HTTPTypes
    import Testing

    @Suite struct HTTPTypesConversionTests {
        static let headers: Headers = Headers([
            Headers.Field(name: "Accept", value: "application/json"),
            Headers.Field(name: "X-Tag", value: "a"),
            Headers.Field(name: "x-tag", value: "b"),
        ])

        @Test func aRequestHeadGoesToHTTPRequestAndBack() throws {
            let url = try #require(URL(string: "https://api.example.com:8443/v1/users/42?expand=true&q=a%20b"))
            let request = ApiRequest(method: .patch, url: url, headers: Self.headers, body: .data(Data("{}".utf8)))
            let converted = HTTPRequest(request)
            #expect(converted.method == .patch)
            #expect(converted.scheme == "https")
            #expect(converted.authority == "api.example.com:8443")
            #expect(converted.path == "/v1/users/42?expand=true&q=a%20b")
            // Repeated names stay separate fields, in order.
            #expect(converted.headerFields[values: HTTPField.Name("X-Tag")!] == ["a", "b"])
            #expect(converted.headerFields.count == 3)

            let back = try ApiRequest(converted, body: request.body)
            #expect(back.method == .patch)
            #expect(back.url == url)
            #expect(back.headers.fields.map(\.value) == ["application/json", "a", "b"])
            #expect(back.headers.values(for: "x-tag") == ["a", "b"])
            #expect(back.body == request.body)
        }

        @Test func aRequestWithoutAuthorityCannotBecomeAnApiRequest() {
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users")
            #expect(throws: ApiError.self) { try ApiRequest(request) }
        }

        @Test func anExtensionMethodIsKept() throws {
            let url = try #require(URL(string: "http://localhost/cache"))
            let converted = HTTPRequest(ApiRequest(method: HTTPMethod(rawValue: "PURGE"), url: url))
            #expect(converted.method.rawValue == "PURGE")
            #expect(converted.path == "/cache")
            #expect(HTTPMethod(converted.method) == HTTPMethod(rawValue: "PURGE"))
        }

        @Test func aResponseHeadGoesToHTTPResponseAndBack() throws {
            let url = try #require(URL(string: "https://api.example.com/users"))
            let head = ResponseHead(
                status: HTTPStatus(429, reasonPhrase: "Too Many Requests"),
                headers: Self.headers,
                url: url
            )
            let converted = HTTPResponse(head)
            #expect(converted.status.code == 429)
            #expect(converted.status.reasonPhrase == "Too Many Requests")
            #expect(converted.headerFields[values: HTTPField.Name("x-tag")!] == ["a", "b"])

            let back = ResponseHead(converted, url: url)
            #expect(back.statusCode == 429)
            #expect(back.status.reasonPhrase == "Too Many Requests")
            #expect(back.headers == Self.headers)
            #expect(back.url == url)
        }

        @Test func fieldsKeepTheirOrderAndRepetitions() {
            let fields = HTTPFields(Self.headers)
            #expect(fields.map(\.name.rawName) == ["Accept", "X-Tag", "x-tag"])
            #expect(Headers(fields) == Self.headers)
        }
    }
#endif
