import CoreAPI
import Foundation
import Testing

@Suite struct URLInfoTests {
    private static func isInvalidURL(_ error: ApiError?) -> Bool {
        if case .invalidRequest(.invalidURL) = error { true } else { false }
    }

    /// Checked hosts are kept for reuse, built URLs are not: a host, a path or a query item that differs
    /// never gets another's URL, and a value that fails keeps failing.
    @Test func reusedURLsNeverMixUpComponents() throws {
        let infos: [(URLInfo, String)] = [
            (.components(host: "https://a.example", path: "/v1/users"), "https://a.example/v1/users"),
            (.components(host: "https://b.example", path: "/v1/users"), "https://b.example/v1/users"),
            (.components(host: "https://a.example", path: "/v1/user"), "https://a.example/v1/user"),
            (
                .components(
                    host: "https://a.example",
                    path: "/v1/users",
                    queryItems: [URLQueryItem(name: "page", value: "2")]
                ),
                "https://a.example/v1/users?page=2"
            ),
        ]
        for _ in 0..<3 {
            for (info, expected) in infos {
                #expect(try info.makeURL().absoluteString == expected)
            }
        }
        let refused = URLInfo.components(host: "ftp://a.example", path: "/v1/users")
        for _ in 0..<2 {
            #expect(Self.isInvalidURL(#expect(throws: ApiError.self) { try refused.makeURL() }))
        }
    }

    /// Each build encodes the value's own bytes. Swift compares strings by canonical equivalence, so a
    /// table of built URLs keyed by the value would hand `e` with a combining accent the URL built earlier
    /// for the precomposed `é`, and the reverse.
    @Test func equalStringsWithOtherBytesGetTheirOwnURL() throws {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)
        let paths = [(precomposed, "https://h/caf%C3%A9"), (decomposed, "https://h/cafe%CC%81")]
        for (path, expected) in paths + paths.reversed() {
            #expect(try URLInfo.components(host: "https://h", path: path).makeURL().absoluteString == expected)
        }
        let queries = [(precomposed, "https://h/x?q=caf%C3%A9"), (decomposed, "https://h/x?q=cafe%CC%81")]
        for (value, expected) in queries + queries.reversed() {
            let info = URLInfo.components(
                host: "https://h",
                path: "/x",
                queryItems: [URLQueryItem(name: "q", value: value)]
            )
            #expect(try info.makeURL().absoluteString == expected)
        }
    }

    @Test(arguments: [
        ("https://h/api", "/v1/x", "https://h/api/v1/x", "h"),
        ("https://h/api/", "v1/x", "https://h/api/v1/x", "h"),
        ("https://h/api/", "/v1/x", "https://h/api/v1/x", "h"),
        ("https://h/api//", "v1", "https://h/api/v1", "h"),
        ("http://127.0.0.1:8080", "/status", "http://127.0.0.1:8080/status", "127.0.0.1"),
        ("https://h:8443/base", "x", "https://h:8443/base/x", "h"),
        ("https://h", "/users/a b", "https://h/users/a%20b", "h"),
        ("https://h", "/what?", "https://h/what%3F", "h"),
        ("https://h", "/a?b", "https://h/a%3Fb", "h"),
        ("https://h", "/a?b=c/d", "https://h/a%3Fb=c/d", "h"),
        ("https://h", "/a#b", "https://h/a%23b", "h"),
        ("https://h", "/100%", "https://h/100%25", "h"),
        ("https://h", "/%2F", "https://h/%252F", "h"),
        ("https://h", "/a\\b", "https://h/a%5Cb", "h"),
        ("https://h", "/é/😀", "https://h/%C3%A9/%F0%9F%98%80", "h"),
        ("https://h", "//evil.com/x", "https://h/evil.com/x", "h"),
        ("https://h", "@evil.com/x", "https://h/@evil.com/x", "h"),
        ("https://h", "a//b", "https://h/a/b", "h"),
        ("https://h", "/v1/x/", "https://h/v1/x/", "h"),
        ("https://h", "/", "https://h/", "h"),
        ("https://h", "", "https://h", "h"),
        ("https://h", "...", "https://h/...", "h"),
        ("https://h", "/a/..b/.c", "https://h/a/..b/.c", "h"),
        ("https://h", "///", "https://h/", "h"),
        ("https://h", "/a//", "https://h/a/", "h"),
        ("https://h", "/a/.../", "https://h/a/.../", "h"),
        ("https://h", "/users/42:x@y;v=1", "https://h/users/42:x@y;v=1", "h"),
    ])
    func componentsBuildTheExactURL(host: String, path: String, expected: String, expectedHost: String) throws {
        let url = try URLInfo.components(host: host, path: path).makeURL()
        #expect(url.absoluteString == expected)
        #expect(URLComponents(url: url, resolvingAgainstBaseURL: false)?.host == expectedHost)
    }

    @Test(arguments: [
        "../admin", "./x", "a/../b", "a/.", "..", ".", "/v1/./x", "/v1/../../etc/passwd", "x/..", "/./", "/a/../",
        "/a/..",
    ])
    func dotSegmentsAreRejected(path: String) {
        let error = #expect(throws: ApiError.self) {
            try URLInfo.components(host: "https://h/api", path: path).makeURL()
        }
        #expect(Self.isInvalidURL(error))
    }

    /// The host must say whether it is served over `https` or plain `http`: the error says what to write.
    @Test func aHostWithoutASchemeSaysWhatToWrite() {
        let error = #expect(throws: ApiError.self) {
            try URLInfo.components(host: "api.example.com", path: "/users").makeURL()
        }
        #expect(Self.isInvalidURL(error))
        #expect(error?.description.contains(#"write "https://api.example.com""#) == true)
    }

    /// A query written into the path would be sent percent-encoded as part of the path; the error names
    /// the parameters, never their values.
    @Test(arguments: [
        ("/users?page=2", "page"), ("users?page=2&size=10", "page, size"), ("/a?token=SECRET", "token"),
    ])
    func aQueryInThePathIsRejected(path: String, names: String) {
        let error = #expect(throws: ApiError.self) {
            try URLInfo.components(host: "https://h", path: path).makeURL()
        }
        #expect(Self.isInvalidURL(error))
        #expect(error?.description.contains("(\(names))") == true)
        #expect(error?.description.contains("SECRET") == false)
        #expect(error?.description.contains("queryItems") == true)
    }

    @Test func queryItemsAreEncodedWithRFC3986() throws {
        let info = URLInfo.components(
            host: "https://h",
            path: "/search",
            queryItems: [
                URLQueryItem(name: "q", value: "a b&c=d+e"),
                URLQueryItem(name: "flag", value: nil),
                URLQueryItem(name: "k y", value: "é/?#%"),
                URLQueryItem(name: "safe", value: "A-z_0.9~"),
            ]
        )
        let url = try info.makeURL()
        #expect(
            url.absoluteString == "https://h/search?q=a%20b%26c%3Dd%2Be&flag&k%20y=%C3%A9%2F%3F%23%25&safe=A-z_0.9~"
        )
        #expect(url.host == "h")
    }

    @Test func queryItemsKeepTheirOrder() throws {
        let items = [URLQueryItem(name: "b", value: "1"), URLQueryItem(name: "a", value: "2")]
        let url = try URLInfo.components(host: "https://h", path: "x", queryItems: items).makeURL()
        #expect(url.absoluteString == "https://h/x?b=1&a=2")
    }

    @Test(arguments: ["https://example.com/a%20b?c=1#frag", "http://127.0.0.1:9000", "HTTPS://Example.com/x"])
    func completeURLsPassThrough(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(try URLInfo.url(url).makeURL() == url)
    }

    @Test(arguments: [
        "ftp://h/x", "file:///etc/passwd", "mailto:someone@example.com", "data:text/plain,hi", "/relative",
        "https://user:pass@h/x", "https://user@h/x", "https://:pass@h/x", "https:///x",
    ])
    func completeURLsMustBeHTTPWithAHost(text: String) throws {
        let url = try #require(URL(string: text))
        let error = #expect(throws: ApiError.self) { try URLInfo.url(url).makeURL() }
        #expect(Self.isInvalidURL(error))
    }

    /// A URL relative to a base is checked as it is sent: by its base's scheme and host.
    @Test(arguments: [
        ("https://h/v1/", true), ("http://127.0.0.1:9/", true), ("ftp://h/", false), ("https://u@h/", false),
    ])
    func relativeURLsAreCheckedThroughTheirBase(base: String, passes: Bool) throws {
        let baseURL = try #require(URL(string: base))
        let url = try #require(URL(string: "items?a=1", relativeTo: baseURL))
        if passes {
            #expect(try URLInfo.url(url).makeURL() == url)
        } else {
            let error = #expect(throws: ApiError.self) { try URLInfo.url(url).makeURL() }
            #expect(Self.isInvalidURL(error))
        }
    }

    @Test(arguments: [
        "ftp://h", "file:///etc", "https://h/?x=1", "https://h?x=1", "https://h/#frag", "https://user:pass@h",
        "https://user@h", "", "https://", "ws://h", "api.example.com", "api.example.com/v2", "h:8443",
        "127.0.0.1:8080",
    ])
    func badHostsAreRejected(host: String) {
        let error = #expect(throws: ApiError.self) {
            try URLInfo.components(host: host, path: "/x").makeURL()
        }
        #expect(Self.isInvalidURL(error))
    }

    @Test(arguments: [
        "/x", "//evil.com", "//evil.com/x", "@evil.com", "user@evil.com", "evil.com:443", "\\\\evil.com", "?@evil.com",
        "#@evil.com", "%2F%2Fevil.com", ":@evil.com",
    ])
    func callerPathsNeverChangeTheHost(path: String) throws {
        for host in ["https://h", "https://h/api/", "https://h:8443", "http://127.0.0.1:8080"] {
            let url = try URLInfo.components(host: host, path: path).makeURL()
            let hostURL = try URLInfo.components(host: host, path: "").makeURL()
            #expect(url.host == hostURL.host)
            #expect(url.port == hostURL.port)
            #expect(url.query == nil)
            #expect(url.fragment == nil)
            #expect(url.user == nil)
        }
    }
}
