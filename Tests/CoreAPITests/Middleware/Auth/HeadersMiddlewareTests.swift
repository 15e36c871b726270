import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Probe: ApiMethod {
    typealias Response = Data
    var headers: Headers = Headers()
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/probe")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Sends every request twice, as a retrier would, and returns the second response.
private struct SendTwice: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

private struct ClientInfo: Encodable, Sendable {
    var version = "2.1"
    var build = 42
    var ratio = 1.5
    var beta = true
    var site = URL(string: "https://example.com/a?b=c")!
    var since = Date(timeIntervalSince1970: 784_111_777)
    var channel: String?

    enum CodingKeys: String, CodingKey {
        case version = "X-App-Version"
        case build = "X-Build"
        case ratio = "X-Ratio"
        case beta = "X-Beta"
        case site = "X-Site"
        case since = "X-Since"
        case channel = "X-Channel"
    }
}

private struct Tagged: Encodable, Sendable {
    var tags = ["a", "b"]
    enum CodingKeys: String, CodingKey { case tags = "X-Tags" }
}

private struct Nested: Encodable, Sendable {
    var client = ["name": "ios"]
    enum CodingKeys: String, CodingKey { case client = "X-Client" }
}

private struct Binary: Encodable, Sendable {
    var blob = Data([1, 2])
    enum CodingKeys: String, CodingKey { case blob = "X-Blob" }
}

private struct MillisecondDates: Encodable, Sendable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    var since = Date(timeIntervalSince1970: 1.5)
    enum CodingKeys: String, CodingKey { case since = "X-Since" }
}

private enum StoreError: Error, Equatable { case locked }

@Suite(.timeLimit(.minutes(1)))
struct HeadersMiddlewareTests {
    let server = StubTransport()

    init() {
        server.on(.get, "/probe", reply: .text("ok"))
    }

    /// The headers the server received for the only request.
    private func sentHeaders(
        _ middlewares: [any Middleware],
        method: Probe = Probe(),
        sessionHeaders: Headers = Headers()
    ) async throws -> Headers {
        let session = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            headers: sessionHeaders,
            middlewares: middlewares
        )
        _ = try await session.perform(method)
        #expect(server.requests.count == 1)
        return try #require(server.requests.first).headers
    }

    @Test func staticHeadersAreSentWithEveryRequest() async throws {
        let fixed = HeadersMiddleware(["X-Client": "ios", "X-Build": "42"] as Headers)
        let dictionary = HeadersMiddleware(["X-Team": "core"])
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [fixed, dictionary])
        _ = try await session.perform(Probe())
        _ = try await session.perform(Probe())
        #expect(server.requests.count == 2)
        for request in server.requests {
            #expect(request.headers["X-Client"] == "ios")
            #expect(request.headers["X-Build"] == "42")
            #expect(request.headers["X-Team"] == "core")
        }
    }

    @Test(arguments: [
        (HeadersMiddleware.Policy.keepExisting, "method", "session"),
        (.overwrite, "global", "global"),
    ])
    func existingHeadersWinUnlessOverwriting(
        policy: HeadersMiddleware.Policy,
        method: String,
        session: String
    ) async throws {
        let global = HeadersMiddleware(
            ["X-Method": "global", "X-Session": "global", "X-New": "global"],
            policy: policy
        )
        let headers = try await sentHeaders(
            [global],
            method: Probe(headers: ["X-Method": "method"]),
            sessionHeaders: ["x-session": "session"]
        )
        #expect(headers["X-Method"] == method)
        #expect(headers["X-Session"] == session)
        #expect(headers["X-New"] == "global")
        #expect(headers.values(for: "X-Method").count == 1)
    }

    @Test func repeatedNamesAddEveryValue() async throws {
        let headers = try await sentHeaders([HeadersMiddleware(["X-Flag": "a", "X-Flag": "b"] as Headers)])
        #expect(headers["X-Flag"]?.replacingOccurrences(of: " ", with: "") == "a,b")
    }

    @Test func dynamicHeadersAreReadForEveryAttempt() async throws {
        let reads = LockedValue(0)
        let dynamic = HeadersMiddleware {
            let read = reads.withLock { count in
                count += 1
                return count
            }
            return ["X-Read": String(read)]
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [SendTwice(), dynamic])
        _ = try await session.perform(Probe())
        _ = try await session.perform(Probe())
        #expect(server.requests.map { $0.headers["X-Read"] } == ["1", "2", "3", "4"])
        #expect(reads.current == 4)
    }

    @Test func dynamicHeadersErrorEndsTheCallUnchanged() async throws {
        let failing = HeadersMiddleware { throw StoreError.locked }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [failing])
        await #expect(throws: StoreError.locked) { try await session.perform(Probe()) }
        #expect(server.requests.isEmpty)
    }

    @Test func encodableFieldsBecomeHeaders() async throws {
        let headers = try await sentHeaders([HeadersMiddleware(encoding: ClientInfo())])
        #expect(headers["X-App-Version"] == "2.1")
        #expect(headers["X-Build"] == "42")
        #expect(headers["X-Ratio"] == "1.5")
        #expect(headers["X-Beta"] == "true")
        #expect(headers["X-Site"] == "https://example.com/a?b=c")
        #expect(headers["X-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(!headers.contains("X-Channel"))
    }

    @Test func encodableWithOwnDateStrategyUsesIt() async throws {
        let headers = try await sentHeaders([HeadersMiddleware(encoding: MillisecondDates())])
        #expect(headers["X-Since"] == "1500")
    }

    @Test(arguments: [
        (Date(timeIntervalSince1970: 0), "Thu, 01 Jan 1970 00:00:00 GMT"),
        (Date(timeIntervalSince1970: 1_700_000_000.999), "Tue, 14 Nov 2023 22:13:20 GMT"),
        (Date(timeIntervalSince1970: 951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT"),
    ])
    func datesAreHTTPDates(date: Date, expected: String) {
        #expect(HeadersMiddleware.httpDate(date) == expected)
    }

    @Test(arguments: [
        (HeadersMiddleware(encoding: Tagged()), "X-Tags: an array cannot be a header value"),
        (HeadersMiddleware(encoding: Nested()), "X-Client: an object cannot be a header value"),
        (HeadersMiddleware(encoding: Binary()), "X-Blob: data cannot be a header value"),
        (HeadersMiddleware(encoding: "text"), "header fields must be encoded from a keyed value, not a string"),
        (HeadersMiddleware(encoding: Double.nan), "nan is not a finite number"),
    ])
    func unencodableValuesFailWithoutSending(middleware: HeadersMiddleware, reason: String) async throws {
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [middleware])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Probe()) }
        guard case .invalidRequest(.encoding(let text)) = error else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(text == reason)
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [
        ("Aladdin", "open sesame", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
        ("test", "123\u{A3}", "Basic dGVzdDoxMjPCow=="),
        ("", "", "Basic Og=="),
    ])
    func basicCredentialsAreUTF8Base64(username: String, password: String, expected: String) async throws {
        let headers = try await sentHeaders([HeadersMiddleware.basic(username: username, password: password)])
        #expect(headers["Authorization"] == expected)
    }

    @Test(arguments: [("a:b", "secret"), ("user", "pass\nword"), ("us\u{0}er", "secret"), ("user", "tab\there")])
    func invalidBasicCredentialsFailWithoutSending(username: String, password: String) async throws {
        let basic = HeadersMiddleware.basic(username: username, password: password)
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [basic])
        await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Authorization"))) {
            try await session.perform(Probe())
        }
        #expect(server.requests.isEmpty)
    }

    @Test func bearerTokenFixedOrAskedForEachRequest() async throws {
        let token = LockedValue<String?>("first")
        let dynamic = HeadersMiddleware.bearer { token.current }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [dynamic])
        _ = try await session.perform(Probe())
        token.withLock { $0 = "second" }
        _ = try await session.perform(Probe())
        token.withLock { $0 = nil }
        _ = try await session.perform(Probe())
        #expect(server.requests.map { $0.headers["Authorization"] } == ["Bearer first", "Bearer second", nil])

        server.clearRequests()
        let headers = try await sentHeaders([HeadersMiddleware.bearer("abc.def")])
        #expect(headers["Authorization"] == "Bearer abc.def")
    }

    @Test func methodAuthorizationWinsOverBearer() async throws {
        let headers = try await sentHeaders(
            [HeadersMiddleware.bearer("global")],
            method: Probe(headers: ["Authorization": "Basic bWU6cHc="])
        )
        #expect(headers["Authorization"] == "Basic bWU6cHc=")
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "line\nbreak", "nul\u{0}byte", "cr\r"])
    func invalidValuesFailWithTypedErrorAndSendNothing(value: String) async throws {
        let cases: [any Middleware] = [
            HeadersMiddleware(["X-Bad": value]),
            HeadersMiddleware { ["X-Bad": value] },
            HeadersMiddleware(["X-Bad": value], policy: .overwrite),
        ]
        for middleware in cases {
            let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [middleware])
            await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "X-Bad"))) {
                try await session.perform(Probe())
            }
        }
        let bearer = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [HeadersMiddleware.bearer(value)]
        )
        await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Authorization"))) {
            try await bearer.perform(Probe())
        }
        #expect(server.requests.isEmpty)
    }

    @Test func invalidHeaderNameFromEncodableFailsWithoutSending() async throws {
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [HeadersMiddleware(encoding: ["Bad Name": "1"])]
        )
        await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Bad Name"))) {
            try await session.perform(Probe())
        }
        #expect(server.requests.isEmpty)
    }

    @Test func defaultHeadersAreSentUnlessTheMethodSetsThem() async throws {
        let headers = try await sentHeaders([HeadersMiddleware.defaults])
        #expect(headers["User-Agent"] == HeadersMiddleware.defaultUserAgent)
        #expect(headers["Accept-Encoding"] == "gzip, deflate")
        let languages = HeadersMiddleware.acceptLanguage(for: Locale.preferredLanguages)
        #expect(headers["Accept-Language"] == (languages.isEmpty ? nil : languages))
        #expect(HeadersMiddleware.defaultAcceptLanguage == languages)

        server.clearRequests()
        let own = try await sentHeaders(
            [HeadersMiddleware.defaults],
            method: Probe(headers: ["User-Agent": "Custom/1", "Accept-Encoding": "identity"])
        )
        #expect(own["User-Agent"] == "Custom/1")
        #expect(own["Accept-Encoding"] == "identity")
    }

    @Test func defaultUserAgentNamesAppLibraryAndSystem() throws {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let system =
            "(\(HeadersMiddleware.operatingSystemName) "
            + "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion))"
        let agent = HeadersMiddleware.defaultUserAgent
        #expect(agent.hasSuffix(" CoreAPI/\(HeadersMiddleware.coreAPIVersion) \(system)"))
        let product = try #require(agent.split(separator: " ").first)
        #expect(!product.isEmpty)
        #expect(product.utf8.allSatisfy { HTTPMethod.isTokenCharacter($0) || $0 == UInt8(ascii: "/") })
        #if os(Linux)
            #expect(HeadersMiddleware.operatingSystemName == "Linux")
        #endif
    }

    @Test(
        arguments: [
            ("Notes", "2.1", "Notes/2.1 CoreAPI/1.0.0 (iOS 17.4.0)"),
            ("My App", "1.0 (7)", "My-App/1.0--7- CoreAPI/1.0.0 (iOS 17.4.0)"),
            ("Caf\u{E9}", nil, "Caf CoreAPI/1.0.0 (iOS 17.4.0)"),
            ("\u{65E5}\u{672C}", "", "App CoreAPI/1.0.0 (iOS 17.4.0)"),
        ] as [(String, String?, String)]
    )
    func userAgentIsBuiltFromProductTokens(name: String, version: String?, expected: String) {
        let agent = HeadersMiddleware.userAgent(
            appName: name,
            appVersion: version,
            operatingSystem: "iOS",
            operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 0)
        )
        #expect(agent == expected)
    }

    @Test(arguments: [
        ([], ""),
        (["en-US"], "en-US;q=1.0"),
        (
            ["en-US", "fr", "de", "it", "es", "pt", "ja"],
            "en-US;q=1.0, fr;q=0.9, de;q=0.8, it;q=0.7, es;q=0.6, pt;q=0.5"
        ),
    ])
    func acceptLanguageHasAtMostSixWithDescendingQuality(languages: [String], expected: String) {
        #expect(HeadersMiddleware.acceptLanguage(for: languages) == expected)
    }
}
