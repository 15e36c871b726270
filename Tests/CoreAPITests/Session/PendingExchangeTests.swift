import Dispatch
import Testing

@testable import CoreAPI

/// When an exchange whose idle timeout the session enforces is due: idle time counts from when its
/// transport starts, not from when the exchange was made.
struct PendingExchangeTests {
    /// Options with a 200 ms idle timeout and no deadline, reporting to `activity`.
    private func options(_ activity: ExchangeActivity) -> TransportOptions {
        var options = TransportOptions(idleTimeout: 0.2)
        options.activity = activity
        return options
    }

    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    @Test func timeBeforeTheTransportStartsIsNotIdleTime() async throws {
        let activity = ExchangeActivity(started: false)
        let pending = PendingExchange(options: options(activity))
        // Longer than the idle timeout while the transport's task waits for a thread: not yet due.
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due > now)
        // Started, then silent for longer than the idle timeout: due.
        activity.touch()
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func aStartedClockCountsFromItsMaking() async throws {
        let pending = PendingExchange(options: options(ExchangeActivity()))
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func activityMovesTheIdleTimeoutOn() async throws {
        let activity = ExchangeActivity()
        let pending = PendingExchange(options: options(activity))
        try await Task.sleep(for: .milliseconds(300))
        activity.touch()
        let touched = now
        #expect(pending.due > touched)
        #expect(pending.due <= touched + 200_000_000)
    }
}
