import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Slow: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var deadline: Duration?
    var options: CallOptions { CallOptions(deadline: deadline) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/slow")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// `cancelAllRequests()`, `invalidate()` and the deadline keep their guarantees over any transport:
/// they are the session's, not the engine's.
@Suite(.timeLimit(.minutes(1)))
struct SessionLifecycleTests {
    let transport = StubTransport()

    init() {
        transport.on("/slow", reply: CannedResponse.text("late").delayed(by: .seconds(30)))
    }

    @Test func invalidateEndsCallsInFlightAndRefusesLaterOnesWithoutSending() async throws {
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let call = Task { try await session.perform(Slow()) }
        try await waitUntil { [transport] in !transport.requests.isEmpty }
        let start = ContinuousClock.now
        session.invalidate()
        await #expect(throws: ApiError.cancelled) { try await call.value }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s delay
        await #expect(throws: ApiError.invalidRequest(.sessionInvalidated)) { try await session.perform(Slow()) }
        #expect(transport.requests.count == 1)
        #expect(!session.isValid)
    }

    @Test func aTransportPassedInOutlivesTheSessionThatInvalidates() async throws {
        transport.on("/fast", reply: .text("ok"))
        let first = transport.makeSession(hosts: ["api": "https://api.test"])
        let second = transport.makeSession(hosts: ["api": "https://api.test"])
        first.invalidate()
        let data = try await second.perform(Fetch(path: "/fast"))
        #expect(data == Data("ok".utf8))
    }

    @Test func theDeadlineEndsACallWhateverTheTransportDoes() async throws {
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let start = ContinuousClock.now
        await #expect(throws: ApiError.timeout) { try await session.perform(Slow(deadline: .seconds(0.3))) }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < promptly)  // not the 30 s delay
    }
}

private struct Fetch: ApiMethod {
    typealias Response = Data
    var path: String
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}
