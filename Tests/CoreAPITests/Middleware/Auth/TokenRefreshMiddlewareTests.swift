import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Me: ApiMethod {
    typealias Response = Data
    var path = "/me"
    var httpMethod: HTTPMethod = .get
    var headers: Headers = Headers()
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Holds the first attempt of each request until `count` requests have arrived, so all of them have
/// passed the middlewares before it (and read the same token) before any is sent.
private final class Gate: Middleware {
    private let count: Int
    private let state = LockedValue<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(count: Int) {
        self.count = count
    }

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        if context.attempt == 1 {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiting.append(continuation)
                    guard state.arrived >= count else { return [] }
                    defer { state.waiting.removeAll() }
                    return state.waiting
                }
                for waiter in released {
                    waiter.resume()
                }
            }
        }
        return try await next(request)
    }
}

private enum RefreshFailure: Error, Equatable { case expired }

/// Counts the calls of a refresh closure and the tokens it was given.
private final class Refresher: Sendable {
    let rejected = LockedValue<[String?]>([])
    let finished = LockedValue(0)
    private let tokens: [String]
    private let delay: UInt64
    private let failure: RefreshFailure?
    /// While true, a refresh does not finish, however long that takes.
    private let held: LockedValue<Bool>

    init(
        tokens: [String] = ["new"],
        delayMilliseconds: UInt64 = 100,
        failure: RefreshFailure? = nil,
        held: Bool = false
    ) {
        self.tokens = tokens
        self.delay = delayMilliseconds * 1_000_000
        self.failure = failure
        self.held = LockedValue(held)
    }

    /// Lets a held refresh finish.
    func release() {
        held.withLock { $0 = false }
    }

    func refresh(_ token: String?) async throws -> String {
        let index = rejected.withLock { rejected in
            rejected.append(token)
            return rejected.count - 1
        }
        try await Task.sleep(nanoseconds: delay)
        try await waitUntil { !held.current }
        finished.withLock { $0 += 1 }
        if let failure { throw failure }
        return tokens[min(index, tokens.count - 1)]
    }
}

@Suite(.timeLimit(.minutes(1)))
struct TokenRefreshMiddlewareTests {
    let server = StubTransport()

    /// `/me` accepts only `Bearer <valid>`; other tokens get a `401` after `delay` seconds.
    private func acceptOnly(_ valid: LockedValue<String>, delay: TimeInterval = 0.05) {
        server.on(.get, "/me") { request in
            request.headers["Authorization"] == "Bearer \(valid.current)"
                ? .json(#"{"id":1}"#) : CannedResponse.status(401).delayed(by: .seconds(delay))
        }
    }

    private func session(_ middlewares: [any Middleware]) -> ApiSession {
        server.makeSession(hosts: ["api": "https://api.test"], middlewares: middlewares)
    }

    private var sentTokens: [String?] {
        server.requests.map { $0.headers["Authorization"] }
    }

    /// Performs `Me()` `count` times at once and returns each outcome.
    private func performConcurrently(_ count: Int, on session: ApiSession) async -> [Result<Data, any Error>] {
        await withTaskGroup(of: Result<Data, any Error>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        return .success(try await session.perform(Me()))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func concurrentRejectionsShareOneRefresh() async throws {
        acceptOnly(LockedValue("new"))
        let refresher = Refresher()
        let auth = TokenRefreshMiddleware(token: "old", refreshLimit: nil, refresh: refresher.refresh)
        let results = await performConcurrently(10, on: session([auth, Gate(count: 10)]))
        #expect(results.count == 10)
        for result in results {
            #expect(try result.get() == Data(#"{"id":1}"#.utf8))
        }
        #expect(refresher.rejected.current == ["old"])
        #expect(server.requests.count == 20)
        #expect(sentTokens.filter { $0 == "Bearer old" }.count == 10)
        #expect(sentTokens.filter { $0 == "Bearer new" }.count == 10)
        #expect(auth.token == "new")
    }

    @Test func refreshFailureFailsEveryWaitingRequestWithItsError() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        // The refresh fails only once every request has had its 401 for a second, so all of them wait
        // for this one refresh however late a busy machine runs them.
        let refresher = Refresher(failure: .expired, held: true)
        let auth = TokenRefreshMiddleware(token: "old", refreshLimit: nil, refresh: refresher.refresh)
        let server = server
        let release = Task {
            try await waitUntil { server.requests.count >= 10 }
            try await Task.sleep(for: .seconds(1))
            refresher.release()
        }
        let results = await performConcurrently(10, on: session([auth, Gate(count: 10)]))
        try await release.value
        #expect(results.count == 10)
        for result in results {
            #expect(throws: RefreshFailure.expired) { try result.get() }
        }
        #expect(refresher.rejected.current == ["old"])
        #expect(server.requests.count == 10)
        #expect(auth.token == "old")
    }

    @Test func requestRejectedAfterRefreshIsReturnedAsUnauthorized() async throws {
        server.on(.get, "/me", reply: CannedResponse.status(401).delayed(by: .seconds(0.05)))
        let refresher = Refresher()
        let auth = TokenRefreshMiddleware(token: "old", refreshLimit: nil, refresh: refresher.refresh)
        let results = await performConcurrently(10, on: session([auth, Gate(count: 10)]))
        #expect(results.count == 10)
        for result in results {
            #expect(throws: ApiError.self) { try result.get() }
            #expect((result.failure as? ApiError)?.category == .unauthorized)
        }
        #expect(refresher.rejected.current == ["old"])
        #expect(server.requests.count == 20)
        #expect(sentTokens.filter { $0 == "Bearer old" }.count == 10)
        #expect(sentTokens.filter { $0 == "Bearer new" }.count == 10)
    }

    @Test func laterRejectionStartsANewRefresh() async throws {
        let valid = LockedValue("t1")
        acceptOnly(valid, delay: 0)
        let refresher = Refresher(tokens: ["t1", "t2"], delayMilliseconds: 0)
        let auth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        let session = session([auth])
        _ = try await session.perform(Me())
        _ = try await session.perform(Me())
        valid.withLock { $0 = "t2" }
        _ = try await session.perform(Me())
        #expect(refresher.rejected.current == ["old", "t1"])
        #expect(sentTokens == ["Bearer old", "Bearer t1", "Bearer t1", "Bearer t1", "Bearer t2"])
        #expect(auth.token == "t2")
    }

    @Test func rejectionOfAnOlderTokenResendsWithoutRefreshing() async throws {
        let refresher = Refresher()
        let auth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        server.on(.get, "/me") { request in
            guard request.headers["Authorization"] == "Bearer current" else {
                // The token changes (a login elsewhere) while this request is out.
                auth.token = "current"
                return .status(401)
            }
            return .json(#"{"id":1}"#)
        }
        let data = try await session([auth]).perform(Me())
        #expect(data == Data(#"{"id":1}"#.utf8))
        #expect(refresher.rejected.current.isEmpty)
        #expect(sentTokens == ["Bearer old", "Bearer current"])
    }

    @Test func requestStartedDuringARefreshWaitsForIt() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        let refresher = Refresher(delayMilliseconds: 400)
        let auth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        let session = session([auth])
        let first = Task { try await session.perform(Me()) }
        try await waitUntil { !refresher.rejected.current.isEmpty }
        let second = try await session.perform(Me())
        #expect(refresher.finished.current == 1)
        _ = try await first.value
        #expect(second == Data(#"{"id":1}"#.utf8))
        #expect(refresher.rejected.current == ["old"])
        #expect(sentTokens == ["Bearer old", "Bearer new", "Bearer new"])
    }

    @Test func cancellingAWaitingRequestLeavesTheRefreshRunning() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        let refresher = Refresher(delayMilliseconds: 0, held: true)
        let auth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        let session = session([auth])
        let first = Task { try await session.perform(Me()) }
        try await waitUntil { !refresher.rejected.current.isEmpty }
        let second = Task { try await session.perform(Me()) }
        try await Task.sleep(nanoseconds: 100_000_000)
        second.cancel()
        await #expect(throws: ApiError.cancelled) { try await second.value }
        #expect(refresher.finished.current == 0)
        refresher.release()
        #expect(try await first.value == Data(#"{"id":1}"#.utf8))
        #expect(refresher.rejected.current == ["old"])
        #expect(sentTokens == ["Bearer old", "Bearer new"])
    }

    @Test func refreshLimitReturnsTheRejectionOnceReached() async throws {
        server.on(.get, "/me", reply: .status(401))
        let refresher = Refresher(tokens: ["t1", "t2", "t3"], delayMilliseconds: 0)
        let auth = TokenRefreshMiddleware(
            token: "old",
            refreshLimit: .init(maximumCount: 2, interval: .seconds(60)),
            refresh: refresher.refresh
        )
        let session = session([auth])
        for _ in 0..<3 {
            await #expect(throws: ApiError.self) { try await session.perform(Me()) }
        }
        #expect(refresher.rejected.current == ["old", "t1"])
        #expect(sentTokens == ["Bearer old", "Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2"])
    }

    @Test func refreshLimitWindowSlides() async throws {
        server.on(.get, "/me", reply: .status(401))
        let refresher = Refresher(tokens: ["t1", "t2"], delayMilliseconds: 0)
        let auth = TokenRefreshMiddleware(
            token: "old",
            refreshLimit: .init(maximumCount: 1, interval: .seconds(15)),
            refresh: refresher.refresh
        )
        let session = session([auth])
        let start = ContinuousClock.now
        await #expect(throws: ApiError.self) { try await session.perform(Me()) }
        // The one refresh the window allows happened during the first call, so before this moment.
        let refreshed = ContinuousClock.now
        await #expect(throws: ApiError.self) { try await session.perform(Me()) }
        let elapsed = ContinuousClock.now - start
        // A long window leaves room for a busy machine (two stub calls took 3.2 s beside the loopback suites).
        try #require(elapsed < .seconds(15), "the second call must fall inside the window")
        #expect(refresher.rejected.current == ["old"])
        try await Task.sleep(until: refreshed + .milliseconds(15_100), clock: .continuous)
        await #expect(throws: ApiError.self) { try await session.perform(Me()) }
        #expect(refresher.rejected.current == ["old", "t1"])
        #expect(sentTokens == ["Bearer old", "Bearer t1", "Bearer t1", "Bearer t1", "Bearer t2"])
    }

    @Test func tokenSetDuringARefreshWinsOverTheRefreshedOne() async throws {
        acceptOnly(LockedValue("manual"), delay: 0)
        let holder = LockedValue<TokenRefreshMiddleware?>(nil)
        let auth = TokenRefreshMiddleware(token: "old") { _ in
            holder.current?.token = "manual"
            return "refreshed"
        }
        holder.withLock { $0 = auth }
        #expect(try await session([auth]).perform(Me()) == Data(#"{"id":1}"#.utf8))
        #expect(auth.token == "manual")
        #expect(sentTokens == ["Bearer old", "Bearer manual"])
    }

    @Test func refreshThroughTheSameSessionIsNotAuthorizedOrRefreshed() async throws {
        server.on(.post, "/token") { request in
            request.headers["Authorization"] == nil ? .text("new") : .status(401)
        }
        acceptOnly(LockedValue("new"), delay: 0)
        let holder = LockedValue<ApiSession?>(nil)
        let auth = TokenRefreshMiddleware(token: "old") { _ in
            guard let session = holder.current else { throw RefreshFailure.expired }
            return String(decoding: try await session.perform(Me(path: "/token", httpMethod: .post)), as: UTF8.self)
        }
        let session = session([auth])
        holder.withLock { $0 = session }
        #expect(try await session.perform(Me()) == Data(#"{"id":1}"#.utf8))
        #expect(server.requests.map(\.url.path) == ["/me", "/token", "/me"])
        #expect(sentTokens == ["Bearer old", nil, "Bearer new"])
    }

    @Test func requestWithItsOwnAuthorizationPassesThrough() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        let refresher = Refresher()
        let auth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        let error = await #expect(throws: ApiError.self) {
            try await session([auth]).perform(Me(headers: ["Authorization": "Basic bWU6cHc="]))
        }
        #expect(error?.statusCode == 401)
        #expect(refresher.rejected.current.isEmpty)
        #expect(sentTokens == ["Basic bWU6cHc="])
    }

    @Test func missingTokenIsRefreshedFromNil() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        let refresher = Refresher(delayMilliseconds: 0)
        let auth = TokenRefreshMiddleware(token: nil, refresh: refresher.refresh)
        _ = try await session([auth]).perform(Me())
        #expect(refresher.rejected.current == [nil])
        #expect(sentTokens == [nil, "Bearer new"])
    }

    @Test func customPredicateDecidesWhatIsARejection() async throws {
        server.on(.get, "/me") { request in
            request.headers["Authorization"] == "Bearer new" ? .json(#"{"id":1}"#) : .status(403)
        }
        let refresher = Refresher(delayMilliseconds: 0)
        let auth = TokenRefreshMiddleware(
            token: "old",
            isUnauthorized: { response, _ in response.statusCode == 403 },
            refresh: refresher.refresh
        )
        #expect(try await session([auth]).perform(Me()) == Data(#"{"id":1}"#.utf8))
        #expect(refresher.rejected.current == ["old"])

        server.clearRequests()
        let defaultAuth = TokenRefreshMiddleware(token: "old", refresh: refresher.refresh)
        await #expect(throws: ApiError.self) { try await session([defaultAuth]).perform(Me()) }
        #expect(sentTokens == ["Bearer old"])
    }

    @Test func invalidTokenFailsWithTypedErrorWithoutSending() async throws {
        acceptOnly(LockedValue("new"), delay: 0)
        let auth = TokenRefreshMiddleware(token: "bad\r\ntoken") { _ in "new" }
        await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Authorization"))) {
            try await session([auth]).perform(Me())
        }
        #expect(server.requests.isEmpty)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
