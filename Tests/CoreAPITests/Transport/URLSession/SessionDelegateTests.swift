import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A task that ignores `cancel()` and never reports its end, as a stuck transfer would.
private final class SilentTask: URLSessionDataTask, @unchecked Sendable {  // no state of its own
    override func cancel() {}
}

/// The delegate ends a call at once when CoreAPI ends its task, even when the task never reports.
@Suite(.timeLimit(.minutes(1)))
struct SessionDelegateTests {
    /// Registers a silent task with `idleTimeout`, cancels it when `cancel` says so, and returns how the
    /// call ended and after how long; throws when it has not ended after 10 s.
    private func end(
        idleTimeout: TimeInterval,
        cancel: Bool
    ) async throws -> (SessionDelegate.TaskOutcome, Duration) {
        let delegate = SessionDelegate()
        let task = SilentTask()
        let ended = LockedValue<SessionDelegate.TaskOutcome?>(nil)
        let start = ContinuousClock.now
        // The exchange's time is kept by its control on the process's one timer, as the transport sets it up.
        var options = TransportOptions(idleTimeout: .seconds(idleTimeout))
        let control = ExchangeControl.for(options)
        defer { control.finish() }
        options.control = control
        delegate.register(task, options: options) { outcome in
            ended.withLock { $0 = outcome }
        }
        control.onEnd { reason in delegate.end(task, with: reason) }
        if cancel {
            delegate.cancel(task)
        }
        try await waitUntil(timeout: .seconds(10)) { ended.current != nil }
        let elapsed = ContinuousClock.now - start
        #expect(delegate.taskCount == 0)
        return (try #require(ended.current), elapsed)
    }

    /// A silent task CoreAPI cancelled ends as cancelled at once; one that was idle for its timeout
    /// ends as timed out right after the timeout. Neither waits for the task to report.
    @Test(arguments: [
        (idleTimeout: 60.0, cancel: true, error: ApiError.cancelled, after: 0),
        (idleTimeout: 0.2, cancel: false, error: ApiError.timeout, after: 200),
    ])
    func aTaskThatNeverReportsEndsOnTime(
        _ row: (idleTimeout: TimeInterval, cancel: Bool, error: ApiError, after: Int)
    ) async throws {
        let (outcome, elapsed) = try await end(idleTimeout: row.idleTimeout, cancel: row.cancel)
        #expect(outcome.error == row.error)
        #expect(outcome.response == nil)
        #expect(elapsed >= .milliseconds(row.after))
        #expect(elapsed < promptly)  // a silent task would never end by itself
    }

    /// The exchange's control ends an exchange through the delegate whether its task is still being made
    /// or attached: the call ends once, with the control's reason; a task made after the end is refused
    /// (the transport then never starts it), and an attached one leaves the delegate's live table.
    @Test(arguments: [
        (attachedFirst: false, reason: ApiError.cancelled),
        (attachedFirst: false, reason: ApiError.timeout),
        (attachedFirst: true, reason: ApiError.cancelled),
        (attachedFirst: true, reason: ApiError.timeout),
    ])
    func anExchangeEndsOnceWithItsReasonWhetherItsTaskIsMadeOrNot(
        _ row: (attachedFirst: Bool, reason: ApiError)
    ) {
        let delegate = SessionDelegate()
        let task = SilentTask()
        let outcomes = LockedValue<[SessionDelegate.TaskOutcome]>([])
        let state = delegate.reserve(options: TransportOptions()) { outcome in
            outcomes.withLock { $0.append(outcome) }
        }
        if row.attachedFirst {
            #expect(delegate.attach(task, to: state))
        }
        delegate.end(exchangeOf: state, with: row.reason)
        delegate.end(exchangeOf: state, with: .timeout)  // a second end, as a late timer would make
        if !row.attachedFirst {
            #expect(!delegate.attach(task, to: state), "a task made after the end must not start")
        }
        #expect(outcomes.current.map(\.error) == [row.reason])
        let counts = delegate.tableCounts
        #expect(counts.tasks == 0 && counts.waiting == 0)
        #expect(counts.retired == (row.attachedFirst ? 1 : 0))
    }
}
