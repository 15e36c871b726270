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
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let start = ContinuousClock.now
        defer {
            let duration = ContinuousClock.now - start
            durations.withLock { $0.append(duration) }
        }
        return try await next(request)
    }
}

/// Records each wait the middleware asks for, then waits for real.
private final class Waits: Sendable {
    let requested = LockedValue<[Duration]>([])

    func wait(_ delay: Duration) async throws {
        requested.withLock { $0.append(delay) }
        try await Task.sleep(for: delay)
    }
}

/// `MinimumDurationMiddleware` against the stub transport, with real waits.
///
/// How long a call took on the clock proves the minimum; the waits the middleware asked for prove that it
/// waited once and no longer than the rest of the minimum, which a clock on a busy machine cannot.
@Suite(.timeLimit(.minutes(1)))
struct MinimumDurationMiddlewareTests {
    let server = StubTransport()
    private let waits = Waits()

    private func makeSession(_ minimum: Duration, inner: [any Middleware] = []) -> ApiSession {
        let waits = waits
        return server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [MinimumDurationMiddleware(minimum: minimum, wait: { try await waits.wait($0) })] + inner
        )
    }

    /// At most one wait, for no more than the minimum (none when the call itself took that long).
    private func expectOneWaitAtMost(_ minimum: Duration) {
        let requested = waits.requested.current
        #expect(requested.count <= 1)
        #expect(requested.allSatisfy { $0 > .zero && $0 <= minimum })
    }

    @Test func fastSuccessWaitsForTheMinimum() async throws {
        server.on("/x", reply: .text("ok"))
        let start = ContinuousClock.now
        let data = try await makeSession(.milliseconds(400)).perform(Call())
        #expect(data == Data("ok".utf8))
        #expect(ContinuousClock.now - start >= .milliseconds(400))
        expectOneWaitAtMost(.milliseconds(400))
    }

    @Test(arguments: [
        (CannedResponse.status(500), ApiError.Category.status),
        (.failure(.transport(.init(kind: .cannotConnect))), .network),
        (.failure(.timeout), .timeout),
    ])
    func fastFailureWaitsForTheMinimumToo(reply: CannedResponse, category: ApiError.Category) async throws {
        server.on("/x", reply: reply)
        let start = ContinuousClock.now
        let error = await #expect(throws: ApiError.self) { try await makeSession(.milliseconds(400)).perform(Call()) }
        #expect(error?.category == category)
        #expect(ContinuousClock.now - start >= .milliseconds(400))
        expectOneWaitAtMost(.milliseconds(400))
    }

    /// A call slower than the minimum returns as soon as the rest of the chain does, without a wait.
    @Test func slowCallReturnsAtOnce() async throws {
        server.on("/x", reply: CannedResponse.text("late").delayed(by: .seconds(1.5)))
        let inside = Stopwatch()
        let data = try await makeSession(.seconds(1), inner: [inside]).perform(Call())
        #expect(data == Data("late".utf8))
        let inner = try #require(inside.durations.current.first)
        #expect(inner >= .milliseconds(1500))
        #expect(waits.requested.current.isEmpty)
    }

    @Test func cancellingDuringTheWaitEndsAtOnce() async throws {
        server.on("/x", reply: .text("ok"))
        let session = makeSession(.seconds(60))
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { !waits.requested.current.isEmpty }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < promptly)  // not the rest of the 60 s minimum
    }

    @Test func cancelledCallIsNotHeldBack() async throws {
        server.on("/x", reply: CannedResponse.text("late").delayed(by: .seconds(60)))
        let session = makeSession(.seconds(30))
        let task = Task { try await session.perform(Call()) }
        try await waitUntil { server.requests.count == 1 }
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: ApiError.cancelled) { try await task.value }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s minimum
        #expect(waits.requested.current.isEmpty)
    }

    @Test(arguments: [
        (Duration.seconds(-1), Duration.zero), (.zero, .zero), (.milliseconds(1500), .milliseconds(1500)),
    ])
    func aNegativeMinimumMeansNone(minimum: Duration, expected: Duration) {
        #expect(MinimumDurationMiddleware(minimum: minimum).minimum == expected)
    }
}
