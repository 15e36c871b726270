import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The secret values used below; none may appear in anything logged, rendered or described.
private let secrets = ["SECRET-TOKEN", "COOKIE-SECRET", "KEY-SECRET", "PASSWORD-SECRET", "URL-SECRET"]

private struct Call: ApiMethod {
    typealias Response = Data
    var path: String
    var httpMethod: HTTPMethod = .get
    var encoding: any ParametersEncoding = QueryParametersEncoder()
    var parameters: [String: String] = [:]
    var nested: [String: [String: String]] = [:]
    var headers: Headers = [:]
    var url: URL?
    var timeout: Duration?
    var hostProviderKey: String { "api" }
    var options: CallOptions { CallOptions(timeout: timeout) }
    var parametersEncoding: any ParametersEncoding { encoding }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        if let url { return .url(url) }
        return .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in parameters {
            try container.encode(value, forKey: Key(stringValue: key))
        }
        for (key, value) in nested {
            try container.encode(value, forKey: Key(stringValue: key))
        }
    }
}

/// Records the cURL rendering of every request it sees.
private struct CurlRecorder: Middleware {
    let redaction: Secrets.Redaction
    let commands = LockedValue<[String]>([])

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        commands.withLock { $0.append(request.curlCommand(redaction: redaction)) }
        return try await next(request)
    }
}

/// Puts `user:URL-SECRET@` into the request's URL.
private struct AddCredentials: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        var request = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        components.user = "user"
        components.password = "URL-SECRET"
        request.url = components.url!
        return try await next(request)
    }
}

/// Adds a header value that fails validation when the request is sent.
private struct AddInvalidHeader: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        guard request.url.path == "/inject" else { return try await next(request) }
        var request = request
        request.headers.set("SECRET-TOKEN\u{1}", for: "X-Bad")
        return try await next(request)
    }
}

/// Many exchanges through a logging session with secrets everywhere; nothing logged, rendered or
/// described may contain one.
@Suite(.timeLimit(.minutes(1)))
struct SecretLeakTests {
    let server = StubTransport()
    let redaction = Secrets.Redaction(secretHeaderNames: ["X-Api-Key"])

    private func routeEverything() {
        server.on(
            .get,
            "/me",
            reply: .json(
                #"{"access_token":"SECRET-TOKEN","user":"ada"}"#,
                headers: ["Set-Cookie": "session=COOKIE-SECRET; HttpOnly"]
            )
        )
        server.on(.get, "/search", reply: .json(#"{"echo":"password=PASSWORD-SECRET","hits":[]}"#))
        server.on(
            .post,
            "/login",
            reply: .json(
                #"{"error":"invalid token SECRET-TOKEN"}"#,
                statusCode: 401,
                headers: ["WWW-Authenticate": "Bearer"]
            )
        )
        server.on(.post, "/form", reply: .text("forbidden: session=COOKIE-SECRET", statusCode: 403))
        server.on(
            .get,
            "/crash",
            reply: .text("Authorization: Bearer SECRET-TOKEN\nX-Api-Key: KEY-SECRET", statusCode: 500)
        )
        server.on(.get, "/broken-json", reply: .json(#"{"password":"PASSWORD-SECRET""#, statusCode: 500))
        server.on(.get, "/offline", reply: .failure(.transport(.init(kind: .offline))))
        server.on(.get, "/slow", reply: CannedResponse.text("late SECRET-TOKEN").delayed(by: .seconds(2)))
        server.on(.post, "/upload", reply: .status(204))
        server.on(.get, "/credentials", reply: .text("ok"))
    }

    private var calls: [Call] {
        [
            Call(path: "/me"),
            Call(
                path: "/search",
                parameters: ["q": "swift", "password": "PASSWORD-SECRET"],
                nested: ["user": ["password": "PASSWORD-SECRET"]]
            ),
            Call(
                path: "/login",
                httpMethod: .post,
                encoding: .json,
                parameters: ["user": "ada", "password": "PASSWORD-SECRET"]
            ),
            Call(path: "/form", httpMethod: .post, parameters: ["user": "ada", "password": "PASSWORD-SECRET"]),
            Call(path: "/crash"),
            Call(path: "/broken-json"),
            Call(path: "/offline"),
            Call(path: "/slow", timeout: .seconds(0.2)),
            Call(
                path: "/upload",
                httpMethod: .post,
                encoding: MultipartFormDataEncoder(),
                parameters: ["password": "PASSWORD-SECRET"]
            ),
            Call(path: "/inject"),
            Call(path: "/x", headers: ["X-Client": "SECRET-TOKEN\r\nX-Injected: 1"]),
            Call(path: "/x", url: URL(string: "https://user:URL-SECRET@api.test/x")!),
            Call(path: "/credentials"),
        ]
    }

    /// Performs every call through a session logging at `level`; returns everything produced.
    private func everything(
        at level: LoggingMiddleware.Level
    ) async -> (logs: [String], curls: [String], errors: [String]) {
        routeEverything()
        let capture = LogCapture()
        let curls = CurlRecorder(redaction: redaction)
        let session = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            headers: [
                "Authorization": "Bearer SECRET-TOKEN", "Cookie": "session=COOKIE-SECRET", "X-Api-Key": "KEY-SECRET",
            ],
            middlewares: [capture.middleware(level, redaction: redaction), curls, AddInvalidHeader()]
        )
        let credentialed = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            middlewares: [AddCredentials(), capture.middleware(level, redaction: redaction), curls]
        )
        var errors: [String] = []
        for call in calls {
            do {
                _ = try await (call.path == "/credentials" ? credentialed : session).perform(call)
            } catch {
                errors += [String(describing: error), String(reflecting: error), error.localizedDescription]
            }
        }
        return (capture.records.map(\.message), curls.commands.current, errors)
    }

    @Test func debugLogsCurlCommandsAndErrorsRevealNoSecret() async throws {
        let (logs, curls, errors) = await everything(at: .debug)
        let text = (logs + curls + errors).joined(separator: "\n")
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        // The secrets were really sent, and everything that is not secret is still there.
        let sent = server.requests
        #expect(
            sent.contains {
                $0.headers["Authorization"] == "Bearer SECRET-TOKEN" && $0.headers["X-Api-Key"] == "KEY-SECRET"
            }
        )
        #expect(sent.contains { $0.bodyText == #"{"password":"PASSWORD-SECRET","user":"ada"}"# })
        #expect(sent.contains { $0.url.user == "user" && $0.url.password == "URL-SECRET" })
        #expect(logs.count == 22)
        #expect(curls.count == 11)
        #expect(errors.count == 3 * 9)
        for expected in [
            "--> GET https://api.test/me (Call)", "Authorization: <redacted>", "Cookie: <redacted>",
            "X-Api-Key: <redacted>",
            "Set-Cookie: <redacted>", #"{"access_token":"<redacted>","user":"ada"}"#,
            "/search?password=<redacted>&q=swift&user%5Bpassword%5D=<redacted>",
            #"{"echo":"password=<redacted>","hits":[]}"#,
            #"--data-binary '{"password":"<redacted>","user":"ada"}'"#, #"{"error":"invalid token <redacted>"}"#,
            "Unauthorized: HTTP 401 Unauthorized for /login, 38 body bytes",
            "--data-binary 'password=<redacted>&user=ada'",
            "forbidden: <redacted>", "Unacceptable status: HTTP 403 Forbidden for /form",
            "charset=utf-8\n\n    Authorization: <redacted>\n    X-Api-Key: <redacted>",
            "<29 bytes, application/json, not valid JSON>", "Transport failure: offline (URLError -1009)",
            "<-- failed GET https://api.test/slow (Call, ", "The request timed out", "multipart/form-data>",
            #"Invalid request: invalid header field "X-Bad""#, #"Invalid request: invalid header field "X-Client""#,
            "Invalid request: invalid URL: a URL must not carry credentials", "https://<redacted>@api.test/credentials",
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
    }

    @Test(arguments: [LoggingMiddleware.Level.error, .info])
    func lowerLevelsRevealNoSecret(level: LoggingMiddleware.Level) async throws {
        let (logs, curls, errors) = await everything(at: level)
        let text = (logs + curls + errors).joined(separator: "\n")
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        #expect(logs.count == (level == .info ? 22 : 7))
        #expect(text.contains("<-- 401 POST https://api.test/login (Call, "))
        let search = "--> GET https://api.test/search?password=<redacted>&q=swift&user%5Bpassword%5D=<redacted> (Call)"
        #expect(logs.contains(search) == (level == .info))
    }
}
