import CoreAPI
import CoreAPITesting
import Foundation
import Testing

private struct Slow: ApiMethod {
    typealias Response = Data
    @Excluded var name: String
    var hostProviderKey: String { "api" }
    var path: String { "/slow/\(name)" }
    var options: CallOptions { CallOptions(callKey: CallKey(name)) }
}

private struct Quick: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/quick" }
}

/// Finding, counting and cancelling calls in flight, and providers, against a transport that holds
/// `/slow/...` replies until its gate opens.
@Suite(.timeLimit(.minutes(1)))
struct CallTrackingTests {
    let transport = StubTransport()
    let gate = ReplyGate()

    init() {
        transport.on("/slow/*") { [gate] _ in
            await gate.wait()
            return .text("slow")
        }
        transport.on("/quick", reply: .text("quick"))
    }

    private func makeSession() -> ApiSession {
        transport.makeSession(hosts: ["api": "https://api.test"])
    }

    @Test func callsInFlightAreListedAndCancelledByType() async throws {
        let session = makeSession()
        let first = Task { try await session.perform(Slow(name: "a")) }
        let second = Task { try await session.perform(Slow(name: "b")) }
        try await waitUntil { gate.arrived == 2 }
        #expect(session.callsInFlight.count == 2)
        #expect(session.isPerforming(Slow.self))
        #expect(!session.isPerforming(Quick.self))
        #expect(session.isPerforming(key: CallKey("b")))
        #expect(try await session.perform(Quick()) == Data("quick".utf8))  // not held
        #expect(session.cancelCalls(of: Slow.self) == 2)
        defer { gate.open() }
        for task in [first, second] {
            let error = await #expect(throws: ApiError.self) { try await task.value }
            #expect(error == .cancelled)
        }
        #expect(session.callsInFlight.isEmpty)
    }

    @Test func cancellingByKeyLeavesOtherCallsAlone() async throws {
        let session = makeSession()
        let kept = Task { try await session.perform(Slow(name: "kept")) }
        let dropped = Task { try await session.perform(Slow(name: "dropped")) }
        try await waitUntil { gate.arrived == 2 }
        #expect(session.cancelCalls(withKey: CallKey("dropped")) == 1)
        let error = await #expect(throws: ApiError.self) { try await dropped.value }
        #expect(error == .cancelled)
        #expect(session.callsInFlight.map(\.key) == [CallKey("kept")])
        gate.open()
        #expect(try await kept.value == Data("slow".utf8))
    }

    @Test func cancellingByPredicateSeesTheMethods() async throws {
        let session = makeSession()
        let tasks = ["x1", "y1", "x2"].map { name in Task { try await session.perform(Slow(name: name)) } }
        try await waitUntil { gate.arrived == 3 }
        let cancelled = session.cancelCalls { ($0.method as? Slow)?.name.hasPrefix("x") == true }
        #expect(cancelled == 2)
        gate.open()
        let results = await tasks.asyncMap { await $0.result.map { String(decoding: $0, as: UTF8.self) } }
        #expect(results.map { (try? $0.get()) ?? "cancelled" } == ["cancelled", "slow", "cancelled"])
    }

    @Test func theCountOfCallsInFlightIsWatched() async throws {
        let session = makeSession()
        var counts = session.callCounts().makeAsyncIterator()
        #expect(await counts.next() == 0)
        let call = Task { try await session.perform(Slow(name: "a")) }
        #expect(await counts.next() == 1)
        gate.open()
        _ = try await call.value
        #expect(await counts.next() == 0)
    }

    @Test func aProviderCancelsOnlyItsOwnCalls() async throws {
        let session = makeSession()
        let provider = session.provider(for: Slow.self)
        let mine = Task { try await provider.perform(Slow(name: "mine")) }
        let other = Task { try await session.perform(Slow(name: "other")) }
        try await waitUntil { gate.arrived == 2 }
        #expect(provider.callCount == 1)
        provider.cancelAll()
        let error = await #expect(throws: ApiError.self) { try await mine.value }
        #expect(error == .cancelled)
        #expect(provider.callCount == 0)
        gate.open()
        #expect(try await other.value == Data("slow".utf8))
        #expect(try await provider.perform(Slow(name: "again")) == Data("slow".utf8))
    }

    @Test func aStartedCallReportsProgressAndItsValue() async throws {
        gate.open()
        let session = makeSession()
        let call = session.start(Slow(name: "a"))
        var steps: [TransferProgress.Direction] = []
        for await step in call.progress {
            steps.append(step.direction)
        }
        #expect(steps.last == .download)
        #expect(try await call.value == Data("slow".utf8))
    }

    @Test func cancellingAStartedCallEndsItAndItsProgress() async throws {
        let session = makeSession()
        let call = session.start(Slow(name: "a"))
        try await waitUntil { gate.arrived == 1 }
        defer { gate.open() }
        call.cancel()
        for await _ in call.progress {}
        let error = await #expect(throws: ApiError.self) { try await call.value }
        #expect(error == .cancelled)
    }
}

extension Array where Element: Sendable {
    /// `transform` of each element, in order.
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self {
            results.append(await transform(element))
        }
        return results
    }
}
