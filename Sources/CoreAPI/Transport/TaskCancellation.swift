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
        var isCancelled = false
    }

    private let state = LockedValue(State())
    private let delegate: SessionDelegate

    init(delegate: SessionDelegate) {
        self.delegate = delegate
    }

    /// Whether the exchange was cancelled.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Makes ``cancel()`` end the exchange of `waiting` at once while its task is being made.
    func wait(for waiting: SessionDelegate.TaskState) {
        let cancelNow = state.withLock { state in
            state.waiting = waiting
            return state.isCancelled
        }
        if cancelNow { delegate.endWaiting(waiting, with: .cancelled) }
    }

    /// Makes `task` the one ``cancel()`` ends; cancels it at once when the exchange is already cancelled.
    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            state.waiting = nil
            return state.isCancelled
        }
        if cancelNow { delegate.cancel(task) }  // Only when cancelled while its task was being made.
    }

    /// Cancels the exchange: its task now, or as soon as it is attached.
    func cancel() {
        let (task, waiting) = state.withLock { state in
            state.isCancelled = true
            return (state.task, state.waiting)
        }
        if let task {
            delegate.cancel(task)  // ends the exchange at once; the engine's cancel runs on a queue of its own
        } else if let waiting {
            delegate.endWaiting(waiting, with: .cancelled)
        }
    }
}
