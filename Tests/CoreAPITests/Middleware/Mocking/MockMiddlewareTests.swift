import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Profile: Decodable, Equatable, Sendable {
    let id: Int
    let name: String
}

extension Profile: ApiResponse {
    static func makeResponse(response: ResponseHead, data: Data) -> Profile? {
        try? JSONDecoder().decode(Profile.self, from: data)
    }
}

private struct GetProfile: ApiMethod {
    typealias Response = Profile
    let id: Int
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/profiles/\(id)")
    }
    func encode(to encoder: any Encoder) throws {}
}

private struct Fetch: ApiMethod {
    typealias Response = Data
    var path: String
    var httpMethod: HTTPMethod = .get
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
    func encode(to encoder: any Encoder) throws {}
}

@Suite struct MockMiddlewareTests {
    let server = StubServer()

    func session(_ mock: MockMiddleware) -> ApiSession {
        server.makeSession(hosts: ["api": "https://api.test"], middlewares: [mock])
    }

    @Test func aRuleForAMethodTypeAnswersItsCalls() async throws {
        let mock = MockMiddleware()
        mock.on(GetProfile.self, reply: .json(#"{"id": 7, "name": "Ada"}"#))
        let profile = try await session(mock).perform(GetProfile(id: 7))
        #expect(profile == Profile(id: 7, name: "Ada"))
        #expect(server.requests.isEmpty)
        #expect(mock.requests.map { $0.url.path } == ["/profiles/7"])
    }

    @Test(arguments: [
        ("/profiles/*", "/profiles/7", true),
        ("/profiles/*", "/profiles", false),
        ("/profiles/*/avatar", "/profiles/7/avatar", true),
        ("/profiles/*/avatar", "/profiles/7/banner", false),
        ("*", "/anything/at/all", true),
        ("/exact", "/exact", true),
        ("/exact", "/exact/more", false),
        ("/a*b*c", "/a-x-b-y-c", true),
        ("/a*b*c", "/a-x-c", false),
    ])
    func pathPatternsMatch(pattern: String, path: String, matches: Bool) async throws {
        let mock = MockMiddleware()
        mock.on(.get, pattern, reply: .text("mocked"))
        // Unmatched requests get the mock's 404, so only a match returns the body.
        let outcome = try? await session(mock).perform(Fetch(path: path))
        #expect((outcome.map { String(decoding: $0, as: UTF8.self) } == "mocked") == matches)
        #expect(server.requests.isEmpty)
    }

    @Test func theHTTPMethodMustMatchWhenGiven() async throws {
        let mock = MockMiddleware()
        mock.on(.post, "/items", reply: .status(201))
        let error = await #expect(throws: ApiError.self) { try await session(mock).perform(Fetch(path: "/items")) }
        #expect(error?.statusCode == 404)
    }

    @Test func unmatchedRequestsGoToTheNetworkOnlyWhenAllowed() async throws {
        server.on(.get, "/live", reply: .text("network"))
        let passing = MockMiddleware(passesUnmatchedRequests: true)
        let body = try await session(passing).perform(Fetch(path: "/live"))
        #expect(String(decoding: body, as: UTF8.self) == "network")
        let closed = MockMiddleware()
        let error = await #expect(throws: ApiError.self) { try await session(closed).perform(Fetch(path: "/live")) }
        #expect(error?.statusCode == 404)
        #expect(server.requests.count == 1)
    }

    /// One session flips between its sandbox and the network while it is in use.
    @Test func theSandboxIsSwitchedAtRunTime() async throws {
        server.on(.get, "/live", reply: .text("network"))
        let mock = MockMiddleware()
        mock.on(.get, "/live", reply: .text("sandbox"))
        let session = session(mock)
        func fetch() async throws -> String {
            String(decoding: try await session.perform(Fetch(path: "/live")), as: UTF8.self)
        }
        #expect(try await fetch() == "sandbox")
        mock.isEnabled = false
        #expect(!mock.isEnabled)
        #expect(try await fetch() == "network")
        mock.isEnabled = true
        #expect(try await fetch() == "sandbox")
        #expect(server.requests.count == 1)
        #expect(mock.requests.count == 2)  // a request passed on while off is not recorded
    }

    @Test func requestsListsEveryAnsweredRequestTheBuiltIn404Included() async throws {
        let mock = MockMiddleware()
        mock.on(.get, "/known", reply: .text("known"))
        let session = session(mock)
        _ = try await session.perform(Fetch(path: "/known"))
        let error = await #expect(throws: ApiError.self) { try await session.perform(Fetch(path: "/unknown")) }
        #expect(error?.statusCode == 404)
        #expect(mock.requests.map { $0.url.path } == ["/known", "/unknown"])
        // A request passed on to the network is not answered by the mock.
        server.on(.get, "/live", reply: .text("network"))
        let passing = MockMiddleware(passesUnmatchedRequests: true)
        _ = try await self.session(passing).perform(Fetch(path: "/live"))
        #expect(passing.requests.isEmpty)
    }

    @Test func aLaterRuleWins() async throws {
        let mock = MockMiddleware()
        mock.on(.get, "/items/*", reply: .status(404))
        mock.on(.get, "/items/1", reply: .text("one"))
        let body = try await session(mock).perform(Fetch(path: "/items/1"))
        #expect(String(decoding: body, as: UTF8.self) == "one")
        let error = await #expect(throws: ApiError.self) { try await session(mock).perform(Fetch(path: "/items/2")) }
        #expect(error?.statusCode == 404)
    }

    @Test func statusHeadersAndBodyReachTheResponse() async throws {
        let mock = MockMiddleware()
        mock.on(.get, "/teapot", reply: .data(Data([1, 2, 3]), statusCode: 418, headers: ["X-Kind": "teapot"]))
        let error = await #expect(throws: ApiError.self) { try await session(mock).perform(Fetch(path: "/teapot")) }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected an unacceptable status, got \(String(describing: error))")
            return
        }
        #expect(failure.statusCode == 418)
        #expect(failure.headers["X-Kind"] == "teapot")
        #expect(failure.body == Data([1, 2, 3]))
    }

    @Test func aFixtureFileIsReadWhenTheReplyIsMade() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(UUID().uuidString).json")
        try Data(#"{"id": 1, "name": "From file"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let mock = MockMiddleware()
        mock.on(GetProfile.self, reply: .file(file))
        #expect(try await session(mock).perform(GetProfile(id: 1)) == Profile(id: 1, name: "From file"))
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json")
        mock.on(GetProfile.self, reply: .file(missing))
        let error = await #expect(throws: ApiError.self) { try await session(mock).perform(GetProfile(id: 1)) }
        #expect(error == .invalidRequest(.unreadableFile(path: missing.path)))
    }

    /// A transport failure gets the `URLError` code of its kind, as URLSession reports it.
    @Test(arguments: [
        (ApiError.timeout, ApiError.timeout),
        (.transport(.init(kind: .offline)), .transport(.init(kind: .offline, code: -1009))),
        (.cancelled, .cancelled),
    ])
    func aFailureReplyIsThrown(failure: ApiError, reported: ApiError) async throws {
        let mock = MockMiddleware()
        mock.on(GetProfile.self, reply: .failure(failure))
        let error = await #expect(throws: ApiError.self) { try await session(mock).perform(GetProfile(id: 1)) }
        #expect(error == reported)
    }

    @Test func aDelayedReplyWaitsAndCanBeCancelled() async throws {
        let mock = MockMiddleware()
        mock.on(
            GetProfile.self,
            reply: CannedResponse.json(#"{"id": 1, "name": "Slow"}"#).delayed(by: .milliseconds(200))
        )
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await session(mock).perform(GetProfile(id: 1))
        #expect(clock.now - start >= .milliseconds(200))
        mock.on(GetProfile.self, reply: CannedResponse.json("{}").delayed(by: .seconds(30)))
        let session = session(mock)
        let call = Task { try await session.perform(GetProfile(id: 1)) }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = clock.now
        call.cancel()
        let result = await call.result
        #expect(throws: ApiError.cancelled) { try result.get() }
        #expect(clock.now - cancelled < promptly)  // not the 30 s delay
    }

    @Test func aHandlerSeesTheRequest() async throws {
        let mock = MockMiddleware()
        mock.on(.get, "/echo/*") { request, context in
            .text("\(context.methodName) \(request.url.lastPathComponent)")
        }
        let body = try await session(mock).perform(Fetch(path: "/echo/hello"))
        #expect(String(decoding: body, as: UTF8.self) == "Fetch hello")
    }
}
