import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The redirect rule of ``SessionPolicy`` as ``Redirect/next(after:request:chain:policy:)`` applies
/// it, without a network: every transport gets the same rule from the session.
@Suite struct RedirectTests {
    /// The headers every request below carries: the three secrets CoreAPI always knows, one the policy
    /// adds, and one that is not secret.
    static let headers = [
        "Authorization": "Bearer TOKEN", "Cookie": "session=1", "Proxy-Authorization": "Basic UA==",
        "x-api-key": "KEY", "X-Plain": "visible",
    ]

    /// A policy with `X-Api-Key` added after `init`, in mixed case.
    static var policy: SessionPolicy {
        var policy = SessionPolicy()
        policy.secretHeaderNames.insert("X-Api-Key")
        return policy
    }

    /// A request for `url` with `method`, a body and ``headers``.
    static func request(_ url: String, method: String = "GET", body: Data? = nil) -> ApiRequest {
        var request = ApiRequest(url: URL(string: url)!)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers {
            request.headers.set(value, for: name)
        }
        if let body {
            request.body = .data(body)
            request.headers.set("application/json", for: "Content-Type")
            request.headers.set(String(body.count), for: "Content-Length")
        }
        return request
    }

    /// The response `status` from `url`, with `location` as its `Location` when given.
    static func response(_ status: Int, from url: String, location: String?) -> ResponseHead {
        let fields = location.map { ["Location": $0] } ?? [:]
        return ResponseHead(status: HTTPStatus(status), headers: Headers(fields), url: URL(string: url)!)
    }

    /// The next hop after `status` with `location` answering `request`.
    static func next(
        _ status: Int,
        _ location: String?,
        after request: ApiRequest,
        chain: Redirect.Chain? = nil,
        policy: SessionPolicy = RedirectTests.policy
    ) -> Result<Redirect?, ApiError> {
        let url = request.url.absoluteString
        return Redirect.next(
            after: response(status, from: url, location: location),
            request: request,
            chain: chain ?? Redirect.Chain(origin: request.url),
            policy: policy
        )
    }

    /// The hop; throws when there is none or it was refused.
    static func hop(_ result: Result<Redirect?, ApiError>) throws -> Redirect {
        switch result {
        case .success(let hop?): return hop
        case .success(nil): throw HopError.none
        case .failure(let error): throw HopError.refused(error)
        }
    }

    enum HopError: Error {
        case none
        case refused(ApiError)
    }

    /// The redirect failure of `result`, or `nil`.
    static func refusal(_ result: Result<Redirect?, ApiError>) -> ApiError.RedirectFailure? {
        if case .failure(.redirect(let failure)) = result { failure } else { nil }
    }

    // MARK: - When there is a hop at all

    @Test(arguments: [200, 204, 300, 304, 305, 306, 400, 500])
    func otherStatusesAreTheAnswer(status: Int) throws {
        let result = Self.next(status, "/next", after: Self.request("https://a.example/start"))
        #expect(try result.get() == nil)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectWithoutLocationIsTheAnswer(status: Int) throws {
        #expect(try Self.next(status, nil, after: Self.request("https://a.example/start")).get() == nil)
    }

    @Test func withRedirectsOffEveryRedirectIsTheAnswer() throws {
        let policy = SessionPolicy(maximumRedirects: 0)
        let result = Self.next(302, "/next", after: Self.request("https://a.example/start"), policy: policy)
        #expect(try result.get() == nil)
    }

    /// The hop that would pass the limit is refused; the ones before are followed.
    @Test(arguments: [(limit: 5, done: 4, refused: false), (5, 5, true), (1, 0, false), (1, 1, true), (2, 7, true)])
    func theHopLimitIsEnforced(limit: Int, done: Int, refused: Bool) throws {
        let request = Self.request("https://a.example/start")
        var chain = Redirect.Chain(origin: request.url)
        chain.count = done
        let result = Self.next(
            302,
            "/next",
            after: request,
            chain: chain,
            policy: SessionPolicy(maximumRedirects: limit)
        )
        if refused {
            let failure = try #require(Self.refusal(result))
            #expect(failure.reason == .tooManyRedirects(limit: limit))
            #expect(failure.statusCode == 302)
            #expect(failure.target?.absoluteString == "https://a.example/next")
        } else {
            #expect(try Self.hop(result).chain.count == done + 1)
        }
    }

    // MARK: - Targets

    /// Relative and absolute `http` and `https` targets are followed, resolved against the response's URL.
    @Test(arguments: [
        ("/next?q=1", "https://a.example/next?q=1"),
        ("next", "https://a.example/dir/next"),
        ("../up", "https://a.example/up"),
        ("?page=2", "https://a.example/dir/start?page=2"),
        ("//b.example/x", "https://b.example/x"),
        ("HTTPS://b.example:8443/x", "https://b.example:8443/x"),
        ("https://[::1]:8443/x", "https://[::1]:8443/x"),
    ])
    func httpTargetsAreFollowed(location: String, target: String) throws {
        let hop = try Self.hop(Self.next(302, location, after: Self.request("https://a.example/dir/start")))
        #expect(hop.request.url.absoluteString == target)
    }

    /// Targets that are not `http` or `https` URLs with a host are refused, naming the scheme; the
    /// target is kept as written (`data:` and `mailto:` have no host or path to rebuild it from).
    @Test(arguments: [
        ("file:///etc/passwd", "file", "file:///etc/passwd"),
        ("ftp://a.example:2121/file.txt", "ftp", "ftp://a.example:2121/file.txt"),
        ("data:text/plain,hello", "data", "data:text/plain,hello"),
        ("mailto:nobody@example.invalid", "mailto", "mailto:nobody@example.invalid"),
        ("javascript:alert(1)", "javascript", "javascript:alert(1)"),
        ("http:no-host", "http", "http:no-host"),
    ])
    func otherSchemesAreRefused(location: String, scheme: String, target: String) throws {
        let result = Self.next(302, location, after: Self.request("https://a.example/start"))
        let failure = try #require(Self.refusal(result))
        #expect(failure.reason == .unsupportedScheme(scheme))
        #expect(failure.statusCode == 302)
        #expect(failure.target?.absoluteString == target)
        #expect(ApiError.redirect(failure).description.contains(target))
    }

    /// A `Location` that is not a URL at all is refused without a target.
    @Test(arguments: ["http://[::1", "http://a b/", "//"])
    func aLocationThatIsNoURLIsRefused(location: String) throws {
        let result = Self.next(301, location, after: Self.request("https://a.example/start"))
        let failure = try #require(Self.refusal(result))
        guard case .unsupportedScheme = failure.reason else {
            Issue.record("\(location): expected an unsupported scheme, got \(failure.reason)")
            return
        }
        #expect(failure.statusCode == 301)
    }

    /// `https` to `http` is refused, even on the same host; the error keeps the target's port and
    /// drops its query and credentials.
    @Test(arguments: [
        ("http://a.example/x", "http://a.example/x"),
        ("http://a.example:8080/x?token=SECRET#part", "http://a.example:8080/x"),
        ("http://user:pass@b.example:81/x", "http://b.example:81/x"),
        ("HTTP://a.example/x", "http://a.example/x"),
    ])
    func anInsecureDowngradeIsRefused(location: String, target: String) throws {
        let result = Self.next(307, location, after: Self.request("https://a.example/start", method: "POST"))
        let failure = try #require(Self.refusal(result))
        #expect(failure == .init(reason: .insecureDowngrade, statusCode: 307, target: URL(string: target)))
        #expect(failure.target?.absoluteString.lowercased() == target.lowercased())
        let description = ApiError.redirect(failure).description
        #expect(description == "Redirect refused: https to http (HTTP 307) to \(target)")
        #expect(!description.contains("SECRET") && !description.contains("pass"))
    }

    /// A target set after the failure was made is printed without its query or credentials too.
    @Test func theDescriptionNeverShowsAQueryOrCredentials() throws {
        var failure = ApiError.RedirectFailure(reason: .insecureDowngrade, statusCode: 302)
        failure.target = URL(string: "http://user:pass@a.example:81/x?token=SECRET#part")
        #expect(
            ApiError.redirect(failure).description
                == "Redirect refused: https to http (HTTP 302) to http://a.example:81/x"
        )
    }

    @Test func httpToHTTPSIsFollowed() throws {
        let hop = try Self.hop(Self.next(301, "https://a.example/x", after: Self.request("http://a.example/start")))
        #expect(hop.request.url.absoluteString == "https://a.example/x")
    }

    // MARK: - Method and body

    /// What each status does to the method and the body: `303` and a `301` or `302` answering a `POST`
    /// make a `GET` without body, `Content-Type` or `Content-Length` (a `HEAD` stays a `HEAD`); `307`
    /// and `308`, and `301` or `302` after anything but `POST`, keep both.
    @Test(arguments: [
        (303, "POST", "GET", false), (303, "PUT", "GET", false), (303, "DELETE", "GET", false),
        (303, "GET", "GET", false), (303, "HEAD", "HEAD", false),
        (301, "POST", "GET", false), (302, "POST", "GET", false), (302, "post", "GET", false),
        (301, "PUT", "PUT", true), (302, "PATCH", "PATCH", true), (302, "DELETE", "DELETE", true),
        (307, "POST", "POST", true), (308, "POST", "POST", true), (307, "PUT", "PUT", true),
        (308, "PATCH", "PATCH", true),
    ])
    func theMethodAndBodyFollowTheStatus(status: Int, method: String, nextMethod: String, keepsBody: Bool) throws {
        let body = Data(#"{"a":1}"#.utf8)
        let request = Self.request("https://a.example/start", method: method, body: body)
        let hop = try Self.hop(Self.next(status, "/next", after: request))
        #expect(hop.request.method.rawValue == nextMethod)
        #expect(hop.request.body.data == (keepsBody ? body : nil))
        #expect(hop.request.headers["Content-Type"] == (keepsBody ? "application/json" : nil))
        #expect(hop.request.headers["Content-Length"] == (keepsBody ? "7" : nil))
        // The credentials of the same origin go along whatever the method.
        #expect(hop.request.headers["Authorization"] == "Bearer TOKEN")
    }

    // MARK: - Credentials

    /// Leaving the origin (another host, port or scheme) strips every secret: the three CoreAPI knows
    /// and the one the policy added; other fields go along. Same origin, default port written or not,
    /// keeps them.
    @Test(arguments: [
        ("https://a.example/start", "https://b.example/next", true),
        ("https://a.example/start", "https://a.example:8443/next", true),
        ("http://a.example/start", "https://a.example/next", true),
        ("http://a.example:8080/start", "http://a.example/next", true),
        ("https://a.example/start", "https://A.EXAMPLE/next", false),
        ("https://a.example/start", "https://a.example:443/next", false),
        ("http://a.example/start", "http://a.example:80/next", false),
        ("https://a.example/start", "HTTPS://a.example/next", false),
        ("https://a.example/start", "/next", false),
    ])
    func secretsAreStrippedWhenTheOriginChanges(start: String, target: String, strips: Bool) throws {
        let hop = try Self.hop(Self.next(307, target, after: Self.request(start)))
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key", "x-api-key"] {
            let value = hop.request.headers[name]
            #expect((value == nil) == strips, "\(name) to \(target)")
        }
        #expect(hop.request.headers["X-Plain"] == "visible")
        #expect(hop.chain.leftOrigin == strips)
    }

    /// Once a hop left the origin, the secrets stay stripped, even back on the original origin.
    @Test func secretsStayStrippedWhenTheChainComesBack() throws {
        let start = Self.request("https://a.example/start")
        let away = try Self.hop(Self.next(302, "https://b.example/away", after: start))
        // The caller sends `away.request`; a middleware could not put the secrets back for the next hop.
        var back = away.request
        back.headers.set("Bearer TOKEN", for: "Authorization")
        let home = try Self.hop(Self.next(302, "https://a.example/home", after: back, chain: away.chain))
        #expect(home.chain.leftOrigin)
        #expect(home.chain.count == 2)
        #expect(home.request.url.absoluteString == "https://a.example/home")
        #expect(home.request.headers["Authorization"] == nil)
        #expect(home.request.headers["X-Plain"] == "visible")
    }

    /// A secret named in the policy's initialiser, in any case, is stripped like one inserted later.
    @Test func secretNamesAreMatchedInAnyCase() throws {
        let policy = SessionPolicy(secretHeaderNames: ["X-API-KEY", "x-session"])
        var request = Self.request("https://a.example/start")
        request.headers.set("S", for: "X-Session")
        let hop = try Self.hop(Self.next(302, "https://b.example/x", after: request, policy: policy))
        #expect(hop.request.headers["X-Api-Key"] == nil)
        #expect(hop.request.headers["X-Session"] == nil)
        #expect(policy.secretHeaderNames == ["x-api-key", "x-session"])
    }
}
