import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that leaves its timeouts to the session: it reports activity `beats` times, `interval`
/// apart, then answers; it records the clock it was given and whether it saw its task cancelled.
///
/// The beats come from a thread of its own that sleeps between them, as an engine's event loop thread
/// reports its reads, not from sleeps of the exchange's task or from a timer on the global queue: tests
/// running beside this one hold the cooperative pool and the global queue's threads for seconds, which
/// stopped such beats while the session's timer, whose queue always gets a thread, went on.
private final class PacedTransport: Transport {
    let beats: Int
    let interval: Duration
    /// Set when the exchange's task was cancelled while it waited.
    let sawCancellation = LockedValue(false)
    /// Whether the session gave it a clock to touch.
    let hadClock = LockedValue<Bool?>(nil)
    /// When its `send` started: idle time counts from there, not from the call.
    let started = LockedValue<ContinuousClock.Instant?>(nil)
    /// When its thread touched the control, in order.
    let touchTimes = LockedValue<[ContinuousClock.Instant]>([])

    init(beats: Int, interval: Duration) {
        self.beats = beats
        self.interval = interval
    }

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        started.withLock { $0 = .now }
        hadClock.withLock { $0 = options.control != nil }
        let microseconds = UInt32(interval / .microseconds(1))
        let stopped = LockedValue(false)
        let touchTimes = touchTimes
        Thread {
            while !stopped.current {
                usleep(microseconds)
                options.control?.touch()
                touchTimes.withLock { $0.append(.now) }
            }
        }
        .start()
        defer { stopped.withLock { $0 = true } }
        do {
            try await Task.sleep(for: interval * beats)
        } catch {
            sawCancellation.withLock { $0 = true }
            throw ApiError.cancelled
        }
        return try RawResponse(url: request.url, statusCode: 200, data: Data("done".utf8))
    }

    /// The longest the thread went without touching the control between `since` and `until`: a timeout
    /// of an exchange it beat for is right only when this reached the idle timeout (a loaded machine that
    /// did not run the thread), and a defect when it did not.
    func longestSilence(since: ContinuousClock.Instant, until: ContinuousClock.Instant) -> Duration {
        let times = [since] + touchTimes.current.filter { $0 < until } + [until]
        return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .zero
    }
}

/// A transport that ignores the control it is given, and answers at once.
private final class PlainTransport: Transport {
    let hadClock = LockedValue<Bool?>(nil)

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        hadClock.withLock { $0 = options.control != nil }
        return try RawResponse(url: request.url, statusCode: 200)
    }
}

/// A transport that ignores cancellation: it reports upload progress every 10 ms, `reports` times.
private final class StubbornTransport: Transport {
    let reports: Int

    init(reports: Int) {
        self.reports = reports
    }

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        for sent in 1...reports {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { continuation.resume() }
            }
            options.progress?(TransferProgress(direction: .upload, completedBytes: Int64(sent), totalBytes: nil))
        }
        return try RawResponse(url: request.url, statusCode: 200)
    }
}

private struct Paced: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/paced" }
    var timeout: Duration?
    var deadline: Duration?
    var options: CallOptions { CallOptions(timeout: timeout, deadline: deadline) }
}

/// The idle timeout and the deadline the session enforces with its one shared timer, for an engine that
/// reports its activity but cannot stop when told, behind ``DetachedTransport``.
///
/// These tests share two cores with the rest of the suite, whose tasks hold the pool's threads for
/// seconds: the transport's task and the caller then wait that long for one. So a timeout's checks bound
/// what the session decides (the error, no earlier than its timeout, before the transport would have
/// answered), never how soon after its timeout the caller resumes.
@Suite(.timeLimit(.minutes(1)))
struct SessionTimeoutTests {
    /// How long a silent transport waits before it answers "done": what a missing timeout would let the
    /// call do, and so the upper bound of a call its timeout must end first.
    static let silence: Duration = .seconds(30)

    private func session(_ transport: any Transport) -> ApiSession {
        ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: DetachedTransport(transport, reportsActivity: true)
        )
    }

    /// A transport silent for 30 s is ended by its 0.3 s idle timeout.
    ///
    /// Without the idle timeout the transport would answer "done" after its silence (the deadline, 60 s by
    /// default, comes later), so ``ApiError/timeout`` is what tells the two apart. The call must also last
    /// at least the idle timeout, and end before the transport's silence is up, counted from the
    /// transport's start, which comes seconds after the call's when the pool is busy. How soon after
    /// 0.3 s it ends is the machine's, so nothing bounds that.
    @Test func anExchangeWithoutActivityEndsAtItsIdleTimeout() async throws {
        let transport = PacedTransport(beats: 1, interval: Self.silence)
        let start = ContinuousClock.now
        await #expect(throws: ApiError.timeout) {
            try await session(transport).perform(Paced(timeout: .seconds(0.3)))
        }
        let ended = ContinuousClock.now
        #expect(ended - start >= .milliseconds(300))
        #expect(try ended - #require(transport.started.current) < Self.silence)
        #expect(transport.hadClock.current == true)
        try await waitUntil { transport.sawCancellation.current }  // the engine's task is cancelled too
    }

    @Test func activityKeepsAnExchangeAlivePastItsIdleTimeout() async throws {
        // Seventy beats 100 ms apart: the exchange lasts 7 s, past its 5 s idle timeout. A timeout is right
        // only when the machine did not run the beating thread for the idle timeout, which its record shows.
        let transport = PacedTransport(beats: 70, interval: .milliseconds(100))
        let start = ContinuousClock.now
        do {
            let data = try await session(transport).perform(Paced(timeout: .seconds(5)))
            #expect(data == Data("done".utf8))
            #expect(ContinuousClock.now - start >= .seconds(7))
            #expect(transport.sawCancellation.current == false)
        } catch ApiError.timeout {
            let silence = transport.longestSilence(since: start, until: .now)
            #expect(silence >= .milliseconds(4_900), "timed out, though beaten at most \(silence) apart")
        }
    }

    /// While the shared timer ends a silent exchange at its 0.5 s idle timeout, it keeps an active one,
    /// whose 7 s of beats outlast its 5 s idle timeout, alive.
    ///
    /// The silent one's bounds are those of ``anExchangeWithoutActivityEndsAtItsIdleTimeout()``: the
    /// timeout error (its transport would answer "done" after its silence), at least its idle timeout
    /// after the call started, before its silence is up. The active one must answer "done", no earlier
    /// than its 7 s of beats: a timer that read no activity would have ended it at 5 s with the timeout.
    @Test func oneTimerEndsASilentExchangeWhileItKeepsAnActiveOneAlive() async throws {
        let active = PacedTransport(beats: 70, interval: .milliseconds(100))
        let silent = PacedTransport(beats: 1, interval: Self.silence)
        let start = ContinuousClock.now
        async let kept = session(active).perform(Paced(timeout: .seconds(5)))
        await #expect(throws: ApiError.timeout) {
            try await session(silent).perform(Paced(timeout: .seconds(0.5)))
        }
        let silentEnded = ContinuousClock.now
        #expect(silentEnded - start >= .milliseconds(500))
        #expect(try silentEnded - #require(silent.started.current) < Self.silence)
        do {
            #expect(try await kept == Data("done".utf8))
            #expect(ContinuousClock.now - start >= .seconds(7))
            #expect(active.sawCancellation.current == false)
        } catch ApiError.timeout {
            let silence = active.longestSilence(since: start, until: .now)
            #expect(silence >= .milliseconds(4_900), "timed out, though beaten at most \(silence) apart")
        }
    }

    /// A 0.6 s deadline ends an exchange that shows activity every 100 ms for 30 s, with an idle timeout
    /// (20 s) that the activity never lets pass.
    ///
    /// Without the deadline the transport would answer "done" after its 30 s, so the timeout error tells
    /// the two apart. The call lasts at least the deadline, and ends before the 20 s idle timeout: had the
    /// beats stopped, that timeout would have ended the call with the same error, and it is the deadline
    /// that is under test. How soon after 0.6 s the caller resumes is the machine's.
    @Test func theDeadlineEndsAnExchangeWhateverItsActivity() async throws {
        let transport = PacedTransport(beats: 300, interval: .milliseconds(100))
        let idleTimeout: TimeInterval = 20
        let start = ContinuousClock.now
        await #expect(throws: ApiError.timeout) {
            try await session(transport).perform(Paced(timeout: .seconds(idleTimeout), deadline: .seconds(0.6)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(600))
        #expect(elapsed < .seconds(idleTimeout))
    }

    @Test func noProgressIsReportedOnceTheCallHasEnded() async throws {
        // The transport ignores cancellation and goes on reporting for 1.5 s.
        let transport = StubbornTransport(reports: 150)
        let reports = LockedValue<[ContinuousClock.Instant]>([])
        let session = session(transport)
        let call = Task {
            try await session.perform(Paced()) { _ in
                reports.withLock { $0.append(.now) }
            }
        }
        try await waitUntil { !reports.current.isEmpty }  // it reports while the call runs
        call.cancel()
        await #expect(throws: ApiError.cancelled) { try await call.value }
        let ended = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(500))
        #expect(reports.current.filter { $0 > ended + .milliseconds(50) }.count == 0)
    }

    /// Every exchange gets the session's control, whatever the transport does with it.
    @Test func everyTransportGetsTheExchangesControl() async throws {
        let transport = PlainTransport()
        let direct = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.test"]), transport: transport)
        _ = try await direct.perform(Paced(timeout: .seconds(0.3)))
        #expect(transport.hadClock.current == true)
    }
}
