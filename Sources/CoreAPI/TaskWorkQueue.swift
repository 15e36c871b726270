import Dispatch

/// Where an ``ApiSession`` creates, resumes and cancels its `URLSessionTask`s.
///
/// FoundationNetworking does each of these synchronously on its own work queue, which is busy while
/// many transfers run. A thousand calls starting at once used to hold every thread of the Swift
/// concurrency pool waiting there (after 90 s only 484 of 1000 tasks were running). Work therefore
/// runs on the caller's thread only when no other work is pending — a lone call pays no thread switch
/// — and otherwise on a serial queue of its own, so at most one pool thread ever waits.
final class TaskWorkQueue: Sendable {
    private let queue: DispatchQueue
    /// Work items started and not yet finished, inline or queued.
    private let pending = LockedValue(0)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `work` now on this thread when nothing else is pending, and on the queue otherwise. For
    /// work a caller does once per call, such as starting its task.
    func run(_ work: @escaping @Sendable () -> Void) {
        let runsHere = pending.withLock { count -> Bool in
            count += 1
            return count == 1
        }
        if runsHere {
            work()
            pending.withLock { $0 -= 1 }
        } else {
            enqueue(work)
        }
    }

    /// Runs `work` on the queue. For work a caller may do many times in a row, such as cancelling:
    /// `cancelAllRequests()` cancels a thousand tasks from one thread, and each would otherwise find
    /// nothing pending and run there, one after another.
    func runLater(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0 += 1 }
        enqueue(work)
    }

    /// Queues `work`, already counted in `pending`.
    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        queue.async { [pending] in
            work()
            pending.withLock { $0 -= 1 }
        }
    }
}
