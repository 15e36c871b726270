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

/// The delegate ends a call even when its task never reports, once CoreAPI has cancelled the task.
@Suite(.timeLimit(.minutes(1)))
struct SessionDelegateTests {
    /// Registers a silent task with `idleTimeout`, cancels it when `cancel` says so, and returns how the
    /// call ended and after how long, or `nil` when it had not ended after 5 s.
    private func end(idleTimeout: TimeInterval, cancel: Bool) async throws -> (Exchange, Duration)? {
        let delegate = SessionDelegate(cancelGrace: 0.3)
        let task = SilentTask()
        let ended = LockedValue<Exchange?>(nil)
        let start = ContinuousClock.now
        delegate.register(task, idleTimeout: idleTimeout) { exchange in
            ended.withLock { $0 = exchange }
        }
        if cancel {
            delegate.cancel(task)
        }
        while ended.current == nil, ContinuousClock.now - start < .seconds(5) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(delegate.taskCount == 0)
        return ended.current.map { ($0, ContinuousClock.now - start) }
    }

    /// A silent task CoreAPI cancelled ends as cancelled after the grace period; one that was idle for
    /// its timeout ends as timed out after the timeout and the grace period.
    @Test(arguments: [
        (idleTimeout: 60.0, cancel: true, code: URLError.Code.cancelled, error: ApiError.cancelled, after: 300),
        (idleTimeout: 0.2, cancel: false, code: URLError.Code.timedOut, error: ApiError.timeout, after: 500),
    ])
    func aTaskThatNeverReportsEndsAsItWouldHave(
        _ row: (idleTimeout: TimeInterval, cancel: Bool, code: URLError.Code, error: ApiError, after: Int)
    ) async throws {
        let (exchange, elapsed) = try #require(try await end(idleTimeout: row.idleTimeout, cancel: row.cancel))
        #expect((exchange.error as? URLError)?.code == row.code)
        #expect(ApiError(try #require(exchange.error)) == row.error)
        #expect(elapsed >= .milliseconds(row.after))
        #expect(elapsed < .seconds(3))
    }
}
