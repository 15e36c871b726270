import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

/// Shares identical calls: a `Hashable` method without a key.
private struct GetReport: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/reports/\(id)" }
    var sharesIdenticalCalls: Bool { true }
}

/// Shares calls by its key; the stamp differs between calls with the same key.
private struct GetFeed: ApiMethod {
    typealias Response = Data
    @Excluded var user: String
    @Excluded var stamp: Int
    var hostProviderKey: String { "api" }
    var path: String { "/feed/\(user)" }
    var callKey: CallKey? { CallKey(user) }
    var sharesIdenticalCalls: Bool { true }
}

/// Asks to share but is neither keyed nor `Hashable`: every call is its own.
private struct GetNews: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/news" }
    var sharesIdenticalCalls: Bool { true }
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
        try await waitUntil { session.callsInFlight.isEmpty }  // the shared exchange itself was cancelled
        gate.open()
        #expect(try await session.perform(GetReport(id: 2)) == Data("/reports/2".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test func aMethodWithoutIdentityIsNeverShared() async throws {
        let session = session
        async let first = session.perform(GetNews())
        async let second = session.perform(GetNews())
        try await waitUntil { gate.arrived == 2 }  // both are out while neither has its answer
        gate.open()
        _ = try await (first, second)
        #expect(transport.requests.count == 2)
    }

    /// A provider's calls share only among themselves, so its cancel never ends another caller's call.
    @Test func callsThroughAProviderShareOnlyWithEachOther() async throws {
        let session = session
        let provider = session.provider(for: GetReport.self)
        let mine = (0..<2).map { _ in Task { try await provider.perform(GetReport(id: 4)) } }
        let other = Task { try await session.perform(GetReport(id: 4)) }
        try await waitUntil { gate.arrived == 2 && session.sharedCalls.waiting == 3 }
        provider.cancelAll()
        for call in mine {
            let error = await #expect(throws: ApiError.self) { try await call.value }
            #expect(error == .cancelled)
        }
        gate.open()
        #expect(try await other.value == Data("/reports/4".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test func aSharedCallIsOneCallInFlightAndCancelledForAll() async throws {
        let session = session
        let waiters = (0..<5).map { _ in Task { try await session.perform(GetReport(id: 3)) } }
        try await waitUntil { session.sharedCalls.waiting == 5 && gate.arrived == 1 }
        #expect(session.callsInFlight.count == 1)
        session.cancelAllRequests()
        defer { gate.open() }
        for waiter in waiters {
            let error = await #expect(throws: ApiError.self) { try await waiter.value }
            #expect(error == .cancelled)
        }
    }
}
