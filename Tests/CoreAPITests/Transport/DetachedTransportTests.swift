import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// An engine that cannot stop: it answers after `delay` whatever happens, and notes whether its task
/// was cancelled meanwhile.
private final class UnstoppableTransport: Transport {
    let delay: Duration
    let touches: Bool
    let sawCancellation = LockedValue(false)
    let answered = LockedValue(false)
    /// When the engine's thread touched the control, in order.
    let touchTimes = LockedValue<[ContinuousClock.Instant]>([])

    init(delay: Duration, touches: Bool = false) {
        self.delay = delay
        self.touches = touches
    }

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        // Works on a thread of its own, deaf to cancellation, as a blocking engine does; it touches the
        // control from that thread, which beside busy tests still gets to run.
        let (delay, touches, touchTimes) = (delay, touches, touchTimes)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread {
                    let end = ContinuousClock.now + delay
                    while ContinuousClock.now < end {
                        usleep(20_000)
                        if touches {
                            options.control?.touch()
                            touchTimes.withLock { $0.append(.now) }
                        }
                    }
                    continuation.resume()
                }
                .start()
            }
        } onCancel: {
            sawCancellation.withLock { $0 = true }
        }
        answered.withLock { $0 = true }
        return try RawResponse(url: request.url, statusCode: 200, data: Data("late".utf8))
    }
}

private struct Slow: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/slow" }
}

/// ``DetachedTransport``: an engine that cannot stop still ends on time, behind the adapter.
@Suite(.timeLimit(.minutes(1)))
struct DetachedTransportTests {
    private func session(_ transport: any Transport, defaults: CallOptions) -> ApiSession {
        ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: transport,
            defaults: defaults
        )
    }

    /// The deadline ends the call although the engine goes on for 30 s; the engine's task is cancelled,
    /// and its late answer is dropped.
    @Test func theDeadlineEndsTheCallWhileTheEngineGoesOn() async throws {
        let engine = UnstoppableTransport(delay: .seconds(30))
        let session = session(
            DetachedTransport(engine, reportsActivity: false),
            defaults: CallOptions(deadline: .milliseconds(300))
        )
        let start = ContinuousClock.now
        await #expect(throws: ApiError.timeout) { try await session.perform(Slow()) }
        #expect(ContinuousClock.now - start < .seconds(30))  // not the engine's 30 s
        try await waitUntil { engine.sawCancellation.current }  // told, though it cannot stop
        #expect(engine.answered.current == false)
    }

    /// A cancel ends the call at once with `cancelled`, before the engine's 30 s.
    @Test func aCancelEndsTheCallAtOnce() async throws {
        let engine = UnstoppableTransport(delay: .seconds(30))
        let session = session(DetachedTransport(engine, reportsActivity: false), defaults: CallOptions())
        let call = Task { try await session.perform(Slow()) }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        call.cancel()
        await #expect(throws: ApiError.cancelled) { try await call.value }
        #expect(ContinuousClock.now - start < .seconds(30))
        try await waitUntil { engine.sawCancellation.current }
    }

    /// An engine that keeps its own idle time (`reportsActivity: false`) is not ended by the session's
    /// idle timeout: its 0.6 s answer arrives through a 0.2 s idle timeout.
    @Test func anEngineThatKeepsItsOwnIdleTimeIsNotEndedByTheSessions() async throws {
        let engine = UnstoppableTransport(delay: .milliseconds(600))
        let session = session(
            DetachedTransport(engine, reportsActivity: false),
            defaults: CallOptions(timeout: .milliseconds(200))
        )
        #expect(try await session.perform(Slow()) == Data("late".utf8))
    }

    /// An engine that reports activity is held to the idle timeout: touching every 20 ms, its 7 s outlive a
    /// 5 s idle timeout; silent, it ends at it, long before 30 s.
    ///
    /// What the code controls is that touches keep the exchange alive, not how often a loaded machine lets
    /// the engine's thread run: a timeout of the touching engine is right only when its thread did go the
    /// idle timeout without a touch, which the engine's own record of its touches shows.
    @Test func anEngineThatReportsActivityIsHeldToTheIdleTimeout() async throws {
        let active = UnstoppableTransport(delay: .seconds(7), touches: true)
        let options = CallOptions(timeout: .seconds(5))
        let detached = DetachedTransport(active, reportsActivity: true)
        let called = ContinuousClock.now
        do {
            #expect(try await session(detached, defaults: options).perform(Slow()) == Data("late".utf8))
        } catch ApiError.timeout {
            // Idle time counts from the call's start: an engine whose task a busy pool starts late is idle.
            let ended = ContinuousClock.now
            let times = [called] + active.touchTimes.current.filter { $0 < ended } + [ended]
            let longest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .zero
            #expect(longest >= .milliseconds(4_900), "timed out, though the engine touched at most \(longest) apart")
        }
        let silent = UnstoppableTransport(delay: .seconds(30))
        let start = ContinuousClock.now
        await #expect(throws: ApiError.timeout) {
            try await session(DetachedTransport(silent, reportsActivity: true), defaults: options).perform(Slow())
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// Called without a session, the adapter makes its own control on the one timer.
    @Test func withoutASessionItKeepsTheOptionsDeadline() async throws {
        let engine = UnstoppableTransport(delay: .seconds(30))
        let transport = DetachedTransport(engine, reportsActivity: false)
        let request = ApiRequest(method: .get, url: try #require(URL(string: "https://api.test/slow")))
        var options = TransportOptions()
        options.deadline = .now + .milliseconds(200)
        await #expect(throws: ApiError.timeout) { try await transport.send(request, options: options) }
    }
}
