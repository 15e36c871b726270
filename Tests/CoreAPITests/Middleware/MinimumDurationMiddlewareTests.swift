import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Call: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/x")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// A middleware after the minimum one: measures how long the rest of the chain took.
private struct Stopwatch: Middleware {
    let durations = LockedValue<[Duration]>([])

    func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let start = ContinuousClock.now
        defer {
            let duration = ContinuousClock.now - start
            durations.withLock { $0.append(duration) }
        }
        return try await next(request)
    }
}

/// `MinimumDurationMiddleware` against the stub server, with real waits.
@Suite(.timeLimit(.minutes(1)))
struct MinimumDurationMiddlewareTests {
    let server = StubTransport()

    private func makeSession(_ seconds: TimeInterval, inner: [any Middleware] = []) -> ApiSession {
        server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [MinimumDurationMiddleware(seconds: seconds)] + inner
        )
    }

    @Test func fastSuccessWaitsForTheMinimum() async throws {
        server.on("/x", reply: .text("ok"))
        let start = ContinuousClock.now
        let data = try await makeSession(0.4).perform(Call())
        let elapsed = ContinuousClock.now - start
        #expect(data == Data("ok".utf8))
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .seconds(3))  // no second wait; two busy cores may resume late
    }

    @Test(arguments: [
        (StubResponse.status(500), "unacceptableStatus"), (.failure(.cannotConnectToHost), "transport"),
        (.failure(.timedOut), "timeout"),
    ])
    func fastFailureWaitsForTheMinimumToo(reply: StubResponse, category: String) async throws {
        server.on("/x", reply: reply)
        let start = ContinuousClock.now
        let error = await #expect(throws: ApiError.self) { try await makeSession(0.4).perform(Call()) }
        let elapsed = ContinuousClock.now - start
        #expect(error?.category == category)
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .seconds(3))  // no second wait; two busy cores may resume late
    }

    /// A call slower than the minimum returns as soon as the rest of the chain does: a stopwatch before
    /// the middleware and one after it differ by far less than the 2 s minimum another wait would add.
    @Test func slowCallReturnsAtOnce() async throws {
        server.on("/x", reply: StubResponse.text("late").delayed(by: 2.5))
        let outside = Stopwatch()
        let inside = Stopwatch()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [outside, MinimumDurationMiddleware(seconds: 2), inside]
        )
        let data = try await session.perform(Call())
        #expect(data == Data("late".utf8))
        let outer = try #require(outside.durations.current.first)
        let inner = try #require(inside.durations.current.first)
        #expect(inner >= .milliseconds(2500))
        #expect(outer - inner < .seconds(1))
    }

    @Test func cancellingDuringTheWaitEndsAtOnce() async throws {
        server.on("/x", reply: .text("ok"))
        let stopwatch = Stopwatch()
        let session = makeSession(10, inner: [stopwatch])
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { !stopwatch.durations.current.isEmpty }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        // Far below the 10 s wait it skips, with room for a loaded machine.
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func cancelledCallIsNotHeldBack() async throws {
        server.on("/x", reply: StubResponse.text("late").delayed(by: 5))
        let session = makeSession(3)
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { server.requests.count == 1 }
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        // Held back, it would end after the 3 s minimum at the earliest.
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test(arguments: [(-1.0, 0.0), (.nan, 0), (.infinity, 0), (-.infinity, 0), (0, 0), (1.5, 1.5)])
    func oddSecondsMeanNoMinimum(seconds: TimeInterval, expected: TimeInterval) {
        #expect(MinimumDurationMiddleware(seconds: seconds).seconds == expected)
    }
}

/// Polls `condition` every 10 ms for up to 5 s.
private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within 5 s")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
