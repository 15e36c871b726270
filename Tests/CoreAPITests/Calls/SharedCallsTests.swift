import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shares identical calls: a `Hashable` method without a key.
private struct GetReport: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/reports/\(id)" }
    var options: CallOptions { CallOptions(sharesIdenticalCalls: true) }
}

/// Shares calls by its key; the stamp differs between calls with the same key.
private struct GetFeed: ApiMethod {
    typealias Response = Data
    @Excluded var user: String
    @Excluded var stamp: Int
    var hostProviderKey: String { "api" }
    var path: String { "/feed/\(user)" }
    var options: CallOptions { CallOptions(callKey: CallKey(user), sharesIdenticalCalls: true) }
}

/// Shares without being `Hashable` or keyed: a `GET` is shared when its request is the same on the wire.
struct SharedNews: ApiMethod {
    typealias Response = Data
    @Excluded var language: String = "en"
    var hostProviderKey: String { "api" }
    var path: String { "/news" }
    var headers: Headers { ["Accept-Language": language] }
    var options: CallOptions { CallOptions(sharesIdenticalCalls: true) }
}

/// A `POST` that asks to share, with a key or without one.
struct SharedSearch: ApiMethod {
    typealias Response = Data
    @Excluded var query: String
    @Excluded var key: String? = nil
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var path: String { "/search" }
    var body: RequestBody? { .data(Data(query.utf8), contentType: "text/plain") }
    var options: CallOptions { CallOptions(callKey: key.map { CallKey($0) }, sharesIdenticalCalls: true) }
}

@Suite(.timeLimit(.minutes(1)))
struct SharedCallsTests {
    let transport = StubTransport()
    let gate = ReplyGate()

    init() {
        transport.on("*") { [gate] request in
            await gate.wait()
            return .text(request.url.path)
        }
    }

    private var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func aHundredIdenticalCallsShareOneExchange() async throws {
        let session = session
        let values = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<100 {
                group.addTask { try await session.perform(GetReport(id: 7)) }
            }
            try await waitUntil { session.sharedCalls.waiting == 100 }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.count == 100)
        #expect(Set(values) == [Data("/reports/7".utf8)])
        #expect(transport.requests.count == 1)
    }

    @Test func callsWithTheSameKeyShareAndOtherKeysDoNot() async throws {
        let session = session
        async let first = session.perform(GetFeed(user: "ann", stamp: 1))
        async let second = session.perform(GetFeed(user: "ann", stamp: 2))
        async let other = session.perform(GetFeed(user: "bob", stamp: 1))
        try await waitUntil { gate.arrived == 2 && session.sharedCalls.waiting == 3 }
        gate.open()
        let values = try await [first, second, other]
        #expect(values.map { String(decoding: $0, as: UTF8.self) } == ["/feed/ann", "/feed/ann", "/feed/bob"])
        #expect(transport.requests.map(\.url.path).sorted() == ["/feed/ann", "/feed/bob"])
    }

    @Test func aSharedExchangePassesTheExchangeWrappersOfTheCallThatStartedIt() async throws {
        let log = EventLog()
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [HopWatcher(name: "w", log: log)]
        )
        async let first = session.perform(GetReport(id: 3))
        async let second = session.perform(GetReport(id: 3))
        try await waitUntil { gate.arrived == 1 && session.sharedCalls.waiting == 2 }
        gate.open()
        _ = try await [first, second]
        #expect(log.events == ["w:/reports/3:200"])
        #expect(transport.requests.map { $0.headers.values(for: "X-Hop") } == [["w"]])
    }

    @Test func aWaiterThatCancelsLeavesTheOthersWaiting() async throws {
        let session = session
        let leaving = Task { try await session.perform(GetReport(id: 1)) }
        try await waitUntil { gate.arrived == 1 }
        let staying = Task { try await session.perform(GetReport(id: 1)) }
        try await waitUntil { session.sharedCalls.waiting == 2 }
        leaving.cancel()
        let started = ContinuousClock.now
        let error = await #expect(throws: ApiError.self) { try await leaving.value }
        #expect(error == .cancelled)
        #expect(ContinuousClock.now - started < promptly)
        gate.open()
        #expect(try await staying.value == Data("/reports/1".utf8))
        #expect(transport.requests.count == 1)
    }

    @Test func whenEveryWaiterLeavesTheExchangeIsCancelledAndTheNextCallStartsAfresh() async throws {
        let cancelledExchanges = LockedValue(0)
        transport.on("*") { [gate] request in
            await gate.wait()
            if Task.isCancelled {
                cancelledExchanges.withLock { $0 += 1 }
            }
            return .text(request.url.path)
        }
        let session = session
        let waiters = (0..<3).map { _ in Task { try await session.perform(GetReport(id: 2)) } }
        try await waitUntil { session.sharedCalls.waiting == 3 && gate.arrived == 1 }  // the request is out
        for waiter in waiters {
            waiter.cancel()
        }
        for waiter in waiters {
            let error = await #expect(throws: ApiError.self) { try await waiter.value }
            #expect(error == .cancelled)
        }
        try await waitUntil { session.callsInFlight.isEmpty && session.sharedCalls.waiting == 0 }
        gate.open()
        try await waitUntil { cancelledExchanges.current == 1 }  // the shared exchange itself was cancelled
        #expect(try await session.perform(GetReport(id: 2)) == Data("/reports/2".utf8))
        #expect(transport.requests.count == 2)
    }

    /// Two calls made while the environment switches: each goes to its own host and gets its answer.
    @Test func aCallAfterTheEnvironmentSwitchedGoesToTheNewHost() async throws {
        let hosts = try EnvironmentsHostProvider(
            environments: ["live": ["api": "https://live.test"], "sandbox": ["api": "https://sandbox.test"]],
            current: "live"
        )
        transport.on("*") { [gate] request in
            await gate.wait()
            return .text(request.url.host ?? "")
        }
        let session = transport.makeSession(hostProvider: hosts)
        let live = Task { try await session.perform(GetReport(id: 5)) }
        try await waitUntil { gate.arrived == 1 }
        try hosts.select("sandbox")
        let sandbox = Task { try await session.perform(GetReport(id: 5)) }
        try await waitUntil { gate.arrived == 2 }
        gate.open()
        #expect(try await live.value == Data("live.test".utf8))
        #expect(try await sandbox.value == Data("sandbox.test".utf8))
    }

    /// Requests that differ on the wire never share; those that are the same do, whatever else differs.
    @Test(arguments: [
        ("a header of the method's", SharedNews(language: "en"), SharedNews(language: "fr"), 2),
        ("the same request", SharedNews(language: "en"), SharedNews(language: "en"), 1),
    ])
    func getsShareWhenTheirRequestsAreTheSame(
        _ what: String,
        _ first: SharedNews,
        _ second: SharedNews,
        requests: Int
    )
        async throws
    {
        let session = session
        async let one = session.perform(first)
        try await waitUntil { gate.arrived == 1 }
        async let two = session.perform(second)
        try await waitUntil { gate.arrived == requests && (requests == 2 || session.sharedCalls.waiting == 2) }
        gate.open()
        _ = try await (one, two)
        #expect(transport.requests.count == requests, "\(what)")
        #expect(Set(transport.requests.map { $0.headers["Accept-Language"] }).count == requests)
    }

    @Test(arguments: [
        ("without a key", SharedSearch(query: "a"), SharedSearch(query: "a"), 2),
        ("with a key and different bodies", SharedSearch(query: "a", key: "k"), SharedSearch(query: "b", key: "k"), 2),
        ("with a key and the same body", SharedSearch(query: "a", key: "k"), SharedSearch(query: "a", key: "k"), 1),
        ("with different keys", SharedSearch(query: "a", key: "k"), SharedSearch(query: "a", key: "l"), 2),
    ])
    func postsShareOnlyWithAKeyAndTheSameBody(
        _ what: String,
        _ first: SharedSearch,
        _ second: SharedSearch,
        requests: Int
    )
        async throws
    {
        transport.on("*") { [gate] request in
            await gate.wait()
            return .text(request.bodyText ?? "")
        }
        let session = session
        async let one = session.perform(first)
        try await waitUntil { gate.arrived == 1 }
        async let two = session.perform(second)
        try await waitUntil { gate.arrived == requests && (requests == 2 || session.sharedCalls.waiting == 2) }
        gate.open()
        let answers = try await [one, two]
        #expect(answers == [Data(first.query.utf8), Data(second.query.utf8)], "\(what)")
        #expect(transport.requests.count == requests, "\(what)")
    }

    /// A field a middleware sets for each request (a token read from a store) is part of the request:
    /// a call made after the token changed sends its own request.
    @Test func aFieldAMiddlewareSetsIsPartOfTheRequest() async throws {
        let token = LockedValue("first")
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [HeadersMiddleware { Headers(["Authorization": "Bearer \(token.current)"]) }]
        )
        let first = Task { try await session.perform(GetReport(id: 6)) }
        try await waitUntil { gate.arrived == 1 }
        let same = Task { try await session.perform(GetReport(id: 6)) }
        try await waitUntil { session.sharedCalls.waiting == 2 }
        token.withLock { $0 = "second" }
        let renewed = Task { try await session.perform(GetReport(id: 6)) }
        try await waitUntil { gate.arrived == 2 }
        gate.open()
        _ = try await (first.value, same.value, renewed.value)
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer first", "Bearer second"])
    }

    /// The identity keeps the request only as a digest: no header value or body shows in it.
    @Test func theIdentityShowsNoSecret() throws {
        var request = ApiRequest(url: try #require(URL(string: "https://api.test/search?q=1")))
        request.method = HTTPMethod(rawValue: "POST")
        request.headers.set("Bearer s3cr3t-token", for: "Authorization")
        request.body = .data(Data("password=hunter2".utf8))
        let identity = try #require(
            WireIdentity(
                of: request,
                method: SharedSearch(query: "", key: "k"),
                settings: SharedSearch(query: "", key: "k").options,
                options: TransportOptions(idleTimeout: .seconds(60), maximumResponseSize: 1_000)
            )
        )
        let shown = "\(identity) \(String(reflecting: identity))"
        #expect(!shown.contains("s3cr3t"))
        #expect(!shown.contains("hunter2"))
        #expect(identity.digest.count == 64)
        // Header names are compared case aside; their values exactly.
        let same = WireIdentity.digest(
            method: "POST",
            url: "https://api.test/search?q=1",
            headers: ["authorization": "Bearer s3cr3t-token"],
            body: Data("password=hunter2".utf8)
        )
        #expect(same == identity.digest)
        let changed = WireIdentity.digest(
            method: "POST",
            url: "https://api.test/search?q=1",
            headers: ["Authorization": "Bearer s3cr3t-tokeN"],
            body: Data("password=hunter2".utf8)
        )
        #expect(changed != identity.digest)
    }

    /// A provider's cancel ends only its own callers; the exchange goes on for the others.
    @Test func aProvidersCancelLeavesTheOtherCallersWaiting() async throws {
        let session = session
        let provider = session.provider(for: GetReport.self)
        let mine = (0..<2).map { _ in Task { try await provider.perform(GetReport(id: 4)) } }
        let other = Task { try await session.perform(GetReport(id: 4)) }
        try await waitUntil { gate.arrived == 1 && session.sharedCalls.waiting == 3 }
        provider.cancelAll()
        for call in mine {
            let error = await #expect(throws: ApiError.self) { try await call.value }
            #expect(error == .cancelled)
        }
        gate.open()
        #expect(try await other.value == Data("/reports/4".utf8))
        #expect(transport.requests.count == 1)
    }

    @Test func eachCallerIsACallInFlightAndCancellingThemAllEndsTheExchange() async throws {
        let session = session
        let waiters = (0..<5).map { _ in Task { try await session.perform(GetReport(id: 3)) } }
        try await waitUntil { session.sharedCalls.waiting == 5 && gate.arrived == 1 }
        #expect(session.callsInFlight.count == 5)
        session.cancelAllRequests()
        defer { gate.open() }
        for waiter in waiters {
            let error = await #expect(throws: ApiError.self) { try await waiter.value }
            #expect(error == .cancelled)
        }
        #expect(session.sharedCalls.waiting == 0)
    }
}
