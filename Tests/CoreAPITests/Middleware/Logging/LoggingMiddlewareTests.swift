import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Fetch: ApiMethod {
    typealias Response = Data
    var path: String
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var isLoggingEnabled = true
    var options: CallOptions {
        CallOptions(acceptableStatusCodes: acceptableStatusCodes, isLoggingEnabled: isLoggingEnabled)
    }
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

private struct CreateNote: ApiMethod {
    typealias Response = Data
    var text: String
    var password: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/notes")
    }
}

private struct Login: ApiMethod {
    typealias Response = Data
    var user: String
    var password: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { .json }
    var headers: Headers { ["Authorization": "Bearer SECRET-TOKEN"] }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/login")
    }
}

/// Answers every request itself, so the session sends nothing and adds no stub headers.
private struct Reply: Middleware {
    var statusCode = 200
    var headers: Headers = [:]
    var body = Data()

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        try RawResponse(url: request.url, statusCode: statusCode, headers: headers, data: body)
    }
}

/// Sends every request twice and returns the second response, like a retry.
private struct Twice: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

private struct Boom: Error {}

/// Throws an error that is not an `ApiError`.
private struct Explode: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        throw Boom()
    }
}

@Suite(.timeLimit(.minutes(1)))
struct LoggingMiddlewareTests {
    let server = StubTransport()
    let capture = LogCapture()
    let hosts = DictionaryHostProvider(["api": "https://api.test"])

    private func session(_ middlewares: [any Middleware]) -> ApiSession {
        server.makeSession(hostProvider: hosts, middlewares: middlewares)
    }

    @Test func levelsAreOrderedFromOffToDebug() {
        #expect(LoggingMiddleware.Level.allCases == [.off, .error, .info, .debug])
        #expect(LoggingMiddleware.Level.allCases.shuffled().sorted() == [.off, .error, .info, .debug])
        #expect(LoggingMiddleware.Level.allCases.map(\.description) == ["off", "error", "info", "debug"])
        #expect(LoggingMiddleware().level == .info)
        #expect(LoggingMiddleware().maximumBodyLength == 4096)
    }

    @Test func infoLogsOneLinePerRequestAndResponse() async throws {
        server.on(.post, "/notes", reply: .json(#"{"id":7}"#, statusCode: 201))
        let data = try await session([capture.middleware(.info)])
            .perform(CreateNote(text: "hi", password: "PASSWORD-SECRET"))
        #expect(data == Data(#"{"id":7}"#.utf8))
        #expect(
            capture.messages == [
                "--> POST https://api.test/notes (CreateNote, 42-byte body)",
                "<-- 201 POST https://api.test/notes (CreateNote, N ms, 8-byte body)",
            ]
        )
        #expect(capture.records.map(\.level) == [.info, .info])
        #expect(capture.records.map(\.event) == [.request, .response])
        #expect(capture.records.map(\.methodName) == ["CreateNote", "CreateNote"])
        #expect(capture.records.map(\.attempt) == [1, 1])
    }

    @Test func infoRedactsTheQuery() async throws {
        server.on(.get, "/search", reply: .text("ok"))
        let url = URL(string: "https://api.test/search?q=a%20b&token=SECRET-TOKEN")!
        _ = try await session([SetURL(url: url), capture.middleware(.info)]).perform(Fetch(path: "/search"))
        #expect(
            capture.messages == [
                "--> GET https://api.test/search?q=a%20b&token=<redacted> (Fetch)",
                "<-- 200 GET https://api.test/search?q=a%20b&token=<redacted> (Fetch, N ms, 2-byte body)",
            ]
        )
        #expect(server.requests.map(\.url) == [url])
    }

    @Test func errorLogsOnlyFailures() async throws {
        server.on(.get, "/ok", reply: .text("ok"))
        server.on(.get, "/fail", reply: .text("boom!", statusCode: 500))
        server.on(.get, "/offline", reply: .failure(.transport(.init(kind: .offline))))
        let session = session([capture.middleware(.error)])
        _ = try await session.perform(Fetch(path: "/ok"))
        #expect(capture.records.isEmpty)
        await #expect(throws: ApiError.self) { try await session.perform(Fetch(path: "/fail")) }
        await #expect(throws: ApiError.transport(.init(kind: .offline, code: -1009))) {
            try await session.perform(Fetch(path: "/offline"))
        }
        #expect(
            capture.messages == [
                "<-- 500 GET https://api.test/fail (Fetch, N ms, 5-byte body)",
                "<-- failed GET https://api.test/offline (Fetch, N ms): Transport failure: offline (URLError -1009)",
            ]
        )
        #expect(capture.records.map(\.level) == [.error, .error])
        #expect(capture.records.map(\.event) == [.response, .failure])
    }

    @Test func acceptedStatusIsNotAFailure() async throws {
        server.on(.get, "/missing", reply: .status(404))
        _ = try await session([capture.middleware(.error)]).perform(
            Fetch(path: "/missing", acceptableStatusCodes: [404])
        )
        #expect(capture.records.isEmpty)
        _ = try await session([capture.middleware(.info)]).perform(
            Fetch(path: "/missing", acceptableStatusCodes: [404])
        )
        #expect(capture.messages.last == "<-- 404 GET https://api.test/missing (Fetch, N ms, 0-byte body)")
        #expect(capture.records.map(\.level) == [.info, .info])
    }

    @Test func offAndDisabledMethodsLogNothing() async throws {
        server.on(.get, "/x", reply: .text("ok"))
        #expect(try await session([capture.middleware(.off)]).perform(Fetch(path: "/x")) == Data("ok".utf8))
        let quiet = Fetch(path: "/x", isLoggingEnabled: false)
        #expect(try await session([capture.middleware(.debug)]).perform(quiet) == Data("ok".utf8))
        server.on(.get, "/x", reply: .text("no", statusCode: 500))
        await #expect(throws: ApiError.self) { try await session([capture.middleware(.debug)]).perform(quiet) }
        #expect(server.requests.count == 3)
        #expect(capture.records.isEmpty)
    }

    @Test func retriedRequestShowsItsAttempt() async throws {
        server.on(.get, "/x", reply: .text("ok"))
        _ = try await session([Twice(), capture.middleware(.info)]).perform(Fetch(path: "/x"))
        #expect(
            capture.messages == [
                "--> GET https://api.test/x (Fetch)",
                "<-- 200 GET https://api.test/x (Fetch, N ms, 2-byte body)",
                "--> GET https://api.test/x (Fetch, attempt 2)",
                "<-- 200 GET https://api.test/x (Fetch, attempt 2, N ms, 2-byte body)",
            ]
        )
        #expect(capture.records.map(\.attempt) == [1, 1, 2, 2])
        #expect(server.requests.count == 2)
    }

    @Test func cancellationIsInfoNotError() async throws {
        server.on(.get, "/slow", reply: CannedResponse.text("late").delayed(by: .seconds(5)))
        let errors = LogCapture()
        let session = session([errors.middleware(.error), capture.middleware(.info)])
        let task = Task { try await session.perform(Fetch(path: "/slow")) }
        // Cancel only once the request is in the network, past the middleware.
        try await waitUntil { !server.requests.isEmpty }
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(errors.records.isEmpty)
        #expect(
            capture.messages == [
                "--> GET https://api.test/slow (Fetch)", "<-- cancelled GET https://api.test/slow (Fetch, N ms)",
            ]
        )
        #expect(capture.records.map(\.level) == [.info, .info])
        #expect(capture.records.map(\.event) == [.request, .failure])
    }

    @Test func otherErrorsAreNamedByTypeAndPassUnchanged() async throws {
        await #expect(throws: Boom.self) {
            try await session([capture.middleware(.error), Explode()]).perform(Fetch(path: "/x"))
        }
        #expect(capture.messages == ["<-- failed GET https://api.test/x (Fetch, N ms): an error of type Boom"])
        #expect(server.requests.isEmpty)
    }

    @Test func durationCoversTheWholeExchange() async throws {
        server.on(.get, "/slow", reply: CannedResponse.text("ok").delayed(by: .seconds(0.2)))
        _ = try await session([capture.middleware(.info)]).perform(Fetch(path: "/slow"))
        let message = try #require(capture.records.last?.message)
        let match = try #require(message.firstMatch(of: /\(Fetch, (\d+) ms, 2-byte body\)$/))
        let milliseconds = try #require(Int(match.1))
        #expect(milliseconds >= 200)
        #expect(milliseconds < 10_000)
    }

    @Test func debugAddsHeadersBodiesAndTheCurlCommand() async throws {
        let reply = Reply(
            headers: ["Content-Type": "application/json", "Set-Cookie": "session=COOKIE-SECRET; HttpOnly"],
            body: Data(#"{"access_token":"SECRET-TOKEN","user":"ada"}"#.utf8)
        )
        let session = ApiSession(hostProvider: hosts, middlewares: [capture.middleware(.debug), reply])
        _ = try await session.perform(Login(user: "ada", password: "PASSWORD-SECRET"))
        #expect(
            capture.messages == [
                """
                --> POST https://api.test/login (Login, 43-byte body)
                    Authorization: <redacted>
                    Content-Type: application/json

                    {"password":"<redacted>","user":"ada"}

                    $ curl -X POST 'https://api.test/login' -H 'Authorization: <redacted>' \
                -H 'Content-Type: application/json' --data-binary '{"password":"<redacted>","user":"ada"}'
                """,
                """
                <-- 200 POST https://api.test/login (Login, N ms, 44-byte body)
                    Content-Type: application/json
                    Set-Cookie: <redacted>

                    {"access_token":"<redacted>","user":"ada"}
                """,
            ]
        )
    }

    @Test func debugShowsFailedResponsesAtErrorLevel() async throws {
        let reply = Reply(statusCode: 503, headers: ["Retry-After": "5"], body: Data("down".utf8))
        let session = ApiSession(hostProvider: hosts, middlewares: [capture.middleware(.debug), reply])
        await #expect(throws: ApiError.self) { try await session.perform(Fetch(path: "/x")) }
        #expect(
            capture.messages == [
                "--> GET https://api.test/x (Fetch)\n    $ curl -X GET 'https://api.test/x'",
                "<-- 503 GET https://api.test/x (Fetch, N ms, 4-byte body)\n    Retry-After: 5\n\n    down",
            ]
        )
        #expect(capture.records.map(\.level) == [.info, .error])
    }

    @Test func debugCutsLongBodiesAndDescribesBinaryOnes() async throws {
        let text = Reply(headers: ["Content-Type": "text/plain"], body: Data(String(repeating: "é", count: 50).utf8))
        _ = try await ApiSession(
            hostProvider: hosts,
            middlewares: [capture.middleware(.debug, maximumBodyLength: 9), text]
        )
        .perform(Fetch(path: "/text"))
        let image = Reply(headers: ["Content-Type": "image/png"], body: Data([0x89, 0x50, 0x4E, 0x47]))
        _ = try await ApiSession(hostProvider: hosts, middlewares: [capture.middleware(.debug), image])
            .perform(Fetch(path: "/image"))
        let responses = capture.messages.filter { $0.hasPrefix("<--") }
        #expect(
            responses == [
                "<-- 200 GET https://api.test/text (Fetch, N ms, 100-byte body)\n    Content-Type: text/plain\n\n"
                    + "    éééé… <truncated, 100 bytes in total>",
                "<-- 200 GET https://api.test/image (Fetch, N ms, 4-byte body)\n    Content-Type: image/png\n\n"
                    + "    <4 bytes, image/png>",
            ]
        )
    }

    @Test func debugHidesEchoedSecretsInResponses() async throws {
        let echo = Reply(
            statusCode: 401,
            headers: ["Content-Type": "text/html"],
            body: Data("<p>Bad token SECRET-TOKEN</p>\r\n<p>again</p>".utf8)
        )
        let session = ApiSession(hostProvider: hosts, middlewares: [capture.middleware(.debug), echo])
        await #expect(throws: ApiError.self) { try await session.perform(Login(user: "ada", password: "pw-1234")) }
        #expect(
            capture.messages.last
                == """
                <-- 401 POST https://api.test/login (Login, N ms, 43-byte body)
                    Content-Type: text/html

                    <p>Bad token <redacted></p>
                    <p>again</p>
                """
        )
        #expect(capture.records.last?.level == .error)
    }
}

/// Replaces the request's URL.
private struct SetURL: Middleware {
    var url: URL

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        var request = request
        request.url = url
        return try await next(request)
    }
}
