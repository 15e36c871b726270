import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cancels the `URLSessionTask` of one exchange, even when the cancel arrives before the task exists.
///
/// A cancel ends the exchange at once through the delegate, which calls into FoundationNetworking on a
/// queue of its own: on Linux a task's `cancel()` waits for FoundationNetworking's work queue, callers
/// are often threads of the concurrency pool, and cancelling all calls cancels a thousand tasks from
/// one thread.
final class TaskCancellation: Sendable {
    private struct State {
        var task: URLSessionTask?
        /// The exchange's state in the delegate while its task is being made.
        var waiting: SessionDelegate.TaskState?
        /// Why the exchange was ended, once it was.
        var reason: ApiError?
    }

    private let state = LockedValue(State())
    private let delegate: SessionDelegate

    init(delegate: SessionDelegate) {
        self.delegate = delegate
    }

    /// Makes ``cancel(with:)`` end the exchange of `waiting` at once while its task is being made.
    func wait(for waiting: SessionDelegate.TaskState) {
        let cancelNow = state.withLock { state in
            state.waiting = waiting
            return state.reason
        }
        if let cancelNow { delegate.endWaiting(waiting, with: cancelNow) }
    }

    /// Makes `task` the one ``cancel(with:)`` ends; ends it at once when the exchange is already ended.
    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            state.waiting = nil
            return state.reason
        }
        if let cancelNow { delegate.end(task, with: cancelNow) }  // Only when ended while its task was being made.
    }

    /// Ends the exchange with `reason` (``ApiError/cancelled`` or ``ApiError/timeout``): its task now,
    /// or as soon as it is attached.
    func cancel(with reason: ApiError) {
        let (task, waiting) = state.withLock { state in
            if state.reason == nil { state.reason = reason }
            return (state.task, state.waiting)
        }
        if let task {
            delegate.end(task, with: reason)  // at once; the engine's cancel runs on a queue of its own
        } else if let waiting {
            delegate.endWaiting(waiting, with: reason)
        }
    }
}
