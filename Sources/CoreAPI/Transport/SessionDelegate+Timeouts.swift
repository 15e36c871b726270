import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one timer of a session's tasks: it ends tasks idle for their timeout or past their deadline,
/// exchanges whose task took too long to be made, and forgets ended tasks that never reported.
extension SessionDelegate {
    /// Makes the timer fire no later than `due`; runs under the lock that guards `shared`.
    func arm(_ shared: inout Shared, for due: UInt64) {
        guard due < shared.armedUntil, !shared.isInvalidated else { return }
        shared.armedUntil = due
        let source: any DispatchSourceTimer
        if let timer = shared.timer {
            source = timer
        } else {
            source = DispatchSource.makeTimerSource(queue: timerQueue)
            source.setEventHandler { self.timerFired() }
            source.activate()
            shared.timer = source
        }
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: due))
    }

    /// Ends every task that has been idle for its timeout or whose deadline has passed, then arms the
    /// timer for the earliest of the rest.
    private func timerFired() {
        var waitedTooLong: [TaskState] = []
        var released: [URL] = []
        var forgotten = 0
        let expired = shared.withLock { shared -> [TaskState] in
            let now = DispatchTime.now().uptimeNanoseconds
            var expired: [TaskState] = []
            var next = UInt64.max
            for state in shared.tasks.values {
                let due = state.due
                if due > now {
                    next = min(next, due)
                } else {
                    expired.append(state)
                }
            }
            for (key, entry) in shared.retired {
                let due = entry.since + Self.retiredGrace
                if due > now {
                    next = min(next, due)
                } else {
                    shared.retired[key] = nil
                    forgotten += 1
                    if let file = entry.file {
                        released.append(file)
                    }
                }
            }
            for (key, state) in shared.waiting {
                let due = state.due
                if due > now {
                    next = min(next, due)
                } else {
                    shared.waiting[key] = nil
                    waitedTooLong.append(state)
                }
            }
            shared.armedUntil = .max
            if next != .max {
                arm(&shared, for: next)
            }
            return expired
        }
        for state in expired {
            if let task = state.task {
                end(task, with: .timeout)
            }
        }
        for state in waitedTooLong {
            if let file = state.temporaryBodyFile {
                TemporaryBodyFiles.release(file)
            }
            state.completion(TaskOutcome(error: .timeout))
        }
        for file in released {
            TemporaryBodyFiles.release(file)
        }
        if forgotten > 0 {
            Self.engineTasks.withLock { $0 -= forgotten }
        }
    }
}
