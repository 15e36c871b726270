import Dispatch
import Testing

@testable import CoreAPI

/// When an exchange whose idle timeout the session enforces is due: idle time counts from when its
/// transport starts, not from when the exchange was made.
struct PendingExchangeTests {
    /// Options with a 200 ms idle timeout and no deadline, reporting to a control started or not.
    private func options(started: Bool = true) -> (TransportOptions, ExchangeControl) {
        var options = TransportOptions(idleTimeout: 0.2)
        let control = ExchangeControl(options: options, started: started)
        options.control = control
        return (options, control)
    }

    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    @Test func timeBeforeTheTransportStartsIsNotIdleTime() async throws {
        let (options, activity) = options(started: false)
        let pending = PendingExchange(options: options)
        // Longer than the idle timeout while the transport's task waits for a thread: not yet due.
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due > now)
        // Started, then silent for longer than the idle timeout: due.
        activity.touch()
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func aStartedClockCountsFromItsMaking() async throws {
        let pending = PendingExchange(options: options().0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(pending.due <= now)
    }

    @Test func activityMovesTheIdleTimeoutOn() async throws {
        let (options, activity) = options()
        let pending = PendingExchange(options: options)
        try await Task.sleep(for: .milliseconds(300))
        activity.touch()
        let touched = now
        #expect(pending.due > touched)
        #expect(pending.due <= touched + 200_000_000)
    }
}
