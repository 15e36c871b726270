import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The timer that forgets the tasks CoreAPI ended which never reported their end (their exchanges'
/// timeouts are the process's one timer's, see ``ExchangeControl``).
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

    /// Forgets every ended task whose grace has passed, releasing its body file, then arms the timer
    /// for the earliest of the rest.
    private func timerFired() {
        var released: [URL] = []
        var forgotten = 0
        shared.withLock { shared in
            let now = DispatchTime.now().uptimeNanoseconds
            var next = UInt64.max
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
            shared.armedUntil = .max
            if next != .max {
                arm(&shared, for: next)
            }
        }
        for file in released {
            TemporaryBodyFiles.release(file)
        }
        if forgotten > 0 {
            Self.engineTasks.withLock { $0 -= forgotten }
        }
    }
}
