import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Note: ApiMethod {
    typealias Response = Data
    var id: Int
    var text: String
    var token: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var headers: Headers { ["Authorization": "Bearer \(token)", "X-Client": "method"] }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/notes/\(id)")
    }

    private enum CodingKeys: String, CodingKey { case text }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
    }
}

private struct Fetch<Response: ApiResponse>: ApiMethod {
    var path: String
    var hostProviderKey = "api"
    var httpMethod: HTTPMethod = .get
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var timeout: Duration?
    var options: CallOptions { CallOptions(timeout: timeout, acceptableStatusCodes: acceptableStatusCodes) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

/// ``ApiSession`` through the stub transport: no sockets, no URLSession.
@Suite(.timeLimit(.minutes(1)))
struct ApiSessionStubTests {
    let server = StubTransport()

    @Test func requestCarriesMethodPathHeadersAndOnlyEncodedParameters() async throws {
        server.on(.post, "/v1/notes/7", reply: .text("saved"))
        let session = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test/v1"]),
            headers: ["X-Client": "session", "Accept": "application/json"]
        )
        let data = try await session.perform(Note(id: 7, text: "hi there", token: "SECRET-TOKEN"))
        #expect(data == Data("saved".utf8))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://api.test/v1/notes/7")
        #expect(request.headers["x-client"] == "method")
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers["authorization"] == "Bearer SECRET-TOKEN")
        #expect(request.bodyText == #"{"text":"hi there"}"#)  // JSON: a POST's default
    }

    @Test func unknownHostKeySendsNothing() async throws {
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        await #expect(throws: ApiError.invalidRequest(.unknownHostKey("other"))) {
            try await session.perform(Fetch<Data>(path: "/x", hostProviderKey: "other"))
        }
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: ["GET POST", "", "G\r\nET"])
    func invalidMethodSendsNothing(token: String) async throws {
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        await #expect(throws: ApiError.invalidRequest(.invalidMethod(token))) {
            try await session.perform(Fetch<Data>(path: "/x", httpMethod: HTTPMethod(rawValue: token)))
        }
        #expect(server.requests.isEmpty)
    }

    @Test func statusOutsideTheAcceptableCodesFails() async throws {
        server.on("/missing", reply: .json(#"{"error":"nope"}"#, statusCode: 404, headers: ["X-Trace": "t1"]))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Fetch<Data>(path: "/missing"))
        }
        #expect(
            error
                == .unacceptableStatus(
                    .init(
                        statusCode: 404,
                        headers: ["Content-Type": "application/json", "X-Trace": "t1"],
                        body: Data(#"{"error":"nope"}"#.utf8),
                        url: URL(string: "https://api.test/missing")
                    )
                )
        )
        let accepted = try await session.perform(Fetch<Data>(path: "/missing", acceptableStatusCodes: [404]))
        #expect(accepted == Data(#"{"error":"nope"}"#.utf8))
    }

    @Test func unauthorizedIsItsOwnCategory() async throws {
        server.on("/me", reply: .status(401))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Fetch<Data>(path: "/me"))
        }
        #expect(error?.category == .unauthorized)
        #expect(error?.statusCode == 401)
    }

    @Test func errorBodyIsCappedAt64KiB() async throws {
        server.on("/big", reply: .data(Data(repeating: 0x41, count: 100_000), statusCode: 500))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Fetch<Data>(path: "/big"))
        }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(failure.body.count == 65_536)
    }

    @Test(arguments: [
        (ApiError.transport(.init(kind: .offline)), ApiError.transport(.init(kind: .offline, code: -1009))),
        (.transport(.init(kind: .cannotConnect)), .transport(.init(kind: .cannotConnect, code: -1004))),
        (.timeout, .timeout),
        (.transport(.init(kind: .connectionLost)), .transport(.init(kind: .connectionLost, code: -1005))),
    ])
    func transportFailuresMapToCategories(failure: ApiError, expected: ApiError) async throws {
        server.on("/x", reply: .failure(failure))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        await #expect(throws: expected) {
            try await session.perform(Fetch<Data>(path: "/x"))
        }
    }

    @Test(arguments: [
        (
            ApiError.TransportFailure.Kind.cannotConnect, "https://api.test",
            "cannot connect to api.test:443 (URLError -1004)"
        ),
        (.dns, "http://api.test:8080", "cannot resolve the host of api.test:8080 (URLError -1003)"),
        (.tls, "https://[::1]:8443", "TLS failed with [::1]:8443 (URLError -1200)"),
        (.offline, "https://api.test", "offline (URLError -1009)"),
    ])
    func aFailureToReachTheServerNamesItsHostAndPort(
        kind: ApiError.TransportFailure.Kind,
        host: String,
        expected: String
    ) async throws {
        server.on("/x", reply: .failure(.transport(.init(kind: kind))))
        let session = server.makeSession(hosts: ["api": host])
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Fetch<Data>(path: "/x"))
        }
        #expect(error?.description == "Transport failure: " + expected)
    }

    @Test(arguments: [CallOptions.unlimited, .seconds(Int64.max), .zero, .seconds(-1), .seconds(1e12)])
    func anyTimeoutValueIsSafe(timeout: Duration) async throws {
        server.on("/x", reply: CannedResponse.text("ok").delayed(by: .seconds(0.05)))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let data = try await session.perform(Fetch<Data>(path: "/x", timeout: timeout))
        #expect(data == Data("ok".utf8))
    }

    @Test func stubDelayBeyondTheTimeoutTimesOut() async throws {
        server.on("/x", reply: CannedResponse.text("late").delayed(by: .seconds(2)))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        await #expect(throws: ApiError.timeout) {
            try await session.perform(Fetch<Data>(path: "/x", timeout: .seconds(0.2)))
        }
    }

    @Test func emptyResponses() async throws {
        server.on("/204", reply: .status(204))
        server.on("/205", reply: .status(205))
        server.on("/zero", reply: .status(200))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        #expect(try await session.perform(Fetch<EmptyResponse>(path: "/204")).statusCode == 204)
        #expect(try await session.perform(Fetch<EmptyResponse>(path: "/205")).statusCode == 205)
        #expect(try await session.perform(Fetch<EmptyResponse>(path: "/zero")).statusCode == 200)
        #expect(try await session.perform(Fetch<Data>(path: "/zero")).isEmpty)
    }

    @Test func laterRouteWinsAndFallbackIs404() async throws {
        server.on("/items/*", reply: .text("any"))
        server.on(.get, "/items/1", reply: .text("one"))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        #expect(try await session.perform(Fetch<Data>(path: "/items/1")) == Data("one".utf8))
        #expect(try await session.perform(Fetch<Data>(path: "/items/2")) == Data("any".utf8))
        await #expect(throws: ApiError.self) { try await session.perform(Fetch<Data>(path: "/other")) }
        #expect(server.requests.map(\.url.path) == ["/items/1", "/items/2", "/other"])
    }

    @Test func cancellingTheTaskEndsAsCancelled() async throws {
        server.on("/slow", reply: CannedResponse.text("late").delayed(by: .seconds(5)))
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let task = Task { try await session.perform(Fetch<Data>(path: "/slow")) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await session.perform(Fetch<Data>(path: "/x"))
        }
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(server.requests.isEmpty)
    }

    @Test func completionHandlerReportsInvalidRequestWithoutSending() async throws {
        let session = server.makeSession(hosts: [:])
        let result = await withCheckedContinuation { continuation in
            session.perform(Fetch<Data>(path: "/x")) { continuation.resume(returning: $0) }
        }
        #expect(throws: ApiError.invalidRequest(.unknownHostKey("api"))) { try result.get() }
        #expect(server.requests.isEmpty)
    }

    @Test func sessionsWithDifferentServersDoNotMix() async throws {
        let other = StubServer()
        server.on("/who", reply: .text("first"))
        other.on("/who", reply: .text("second"))
        let first = server.makeSession(hosts: ["api": "https://api.test"])
        let second = other.makeSession(hosts: ["api": "https://api.test"])
        async let a = first.perform(Fetch<Data>(path: "/who"))
        async let b = second.perform(Fetch<Data>(path: "/who"))
        #expect(try await a == Data("first".utf8))
        #expect(try await b == Data("second".utf8))
        #expect(server.requests.count == 1)
        #expect(other.requests.count == 1)
    }

    @Test func errorDescriptionsNeverContainSecrets() async throws {
        server.on(
            "/secret",
            reply: .status(403, headers: ["Set-Cookie": "session=SECRET-COOKIE"])
        )
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Fetch<Data>(path: "/secret"))
        }
        var dumped = ""
        dump(error, to: &dumped)
        let renderings = [
            String(describing: error), String(reflecting: error), error?.localizedDescription ?? "", dumped,
        ]
        for text in renderings {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains("403"), "\(text)")
        }
    }
}
