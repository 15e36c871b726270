import Dispatch
import Foundation

/// One timer for the deadlines, and the idle timeouts the session enforces, of every exchange in the
/// process.
///
/// A timer per exchange would keep a timer entry alive for the whole deadline (a minute by default)
/// after the exchange ended. This one is armed for the earliest time due only, and an exchange that
/// ends removes its entry at once. An idle timeout is due a while after the exchange's last activity;
/// when it comes, the timer reads the activity again and moves the entry on if there was some, so
/// activity itself never touches the timer.
///
/// It ends every engine's exchanges through their ``ExchangeControl``, whether the session made it or a
/// transport called without a session did (``ExchangeControl/for(_:)``).
final class DeadlineTimer: Sendable {
    /// The timer every session shares.
    static let shared = DeadlineTimer()

    private struct State {
        var entries: [ObjectIdentifier: (due: UInt64, exchange: any TimedExchange)] = [:]
        var timer: (any DispatchSourceTimer)?
        /// When `timer` fires next (`.max`: not armed).
        var armedUntil = UInt64.max
    }

    private let state = LockedValue(State())
    private let queue = DispatchQueue(label: "CoreAPI.ApiSession.deadlines")

    /// Ends `exchange` with ``ApiError/timeout`` at `due` (uptime nanoseconds), or when its
    /// ``TimedExchange/due`` time is then later, at that time, unless it is removed first.
    func add(_ exchange: any TimedExchange, due: UInt64) {
        state.withLock { state in
            state.entries[ObjectIdentifier(exchange)] = (due, exchange)
            arm(&state, for: due)
        }
    }

    /// Forgets `exchange`.
    func remove(_ exchange: any TimedExchange) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    /// Makes the timer fire no later than `due`; runs under the lock.
    private func arm(_ state: inout State, for due: UInt64) {
        guard due < state.armedUntil else { return }
        state.armedUntil = due
        let source: any DispatchSourceTimer
        if let timer = state.timer {
            source = timer
        } else {
            source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { [unowned self] in fire() }
            source.activate()
            state.timer = source
        }
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: due))
    }

    /// Ends every exchange whose deadline has passed, then arms the timer for the earliest of the rest.
    private func fire() {
        let expired = state.withLock { state -> [any TimedExchange] in
            let now = DispatchTime.now().uptimeNanoseconds
            var expired: [any TimedExchange] = []
            var next = UInt64.max
            for (key, entry) in state.entries {
                // An idle timeout moves later with every activity: read the exchange's time again.
                let due = entry.due <= now ? entry.exchange.due : entry.due
                if due <= now {
                    expired.append(entry.exchange)
                    state.entries[key] = nil
                } else {
                    state.entries[key]?.due = due
                    next = min(next, due)
                }
            }
            state.armedUntil = .max
            if next != .max {
                arm(&state, for: next)
            }
            return expired
        }
        for exchange in expired {
            exchange.timeOut()
        }
    }
}

/// An exchange the one timer ends: it says when it is due, and ends with ``ApiError/timeout`` when told.
protocol TimedExchange: AnyObject, Sendable {
    /// When it times out unless it shows activity first (uptime nanoseconds; `.max` for never).
    var due: UInt64 { get }
    /// Ends it with ``ApiError/timeout``; runs on the timer's queue and must not block.
    func timeOut()
}
