import Dispatch

/// When an exchange last sent or received a byte: the clock of the idle timeout the session enforces for
/// an ``ActivityReportingTransport``.
///
/// The transport touches it; the session's one deadline timer reads it only when a timeout may be due,
/// so a busy exchange costs one clock read and one uncontended lock per touch and no timer work.
package final class ExchangeActivity: Sendable {
    private let last: LockedValue<UInt64>

    /// A clock whose last activity is now, or, when `started` is `false`, that counts no idle time
    /// until its first touch: the transport it is for has not started yet.
    package init(started: Bool = true) {
        last = LockedValue(started ? DispatchTime.now().uptimeNanoseconds : 0)
    }

    /// Records activity now.
    package func touch() {
        let now = DispatchTime.now().uptimeNanoseconds
        // Two threads may touch at once (an engine's reads and its body writes): the later time wins
        // whichever stores first, so the clock never goes back.
        last.withLock { $0 = max($0, now) }
    }

    /// Stops counting idle time until the next touch, as before a first touch: the transport waits
    /// for the reader of a stream to make room, not for the peer.
    package func pause() {
        last.withLock { $0 = 0 }
    }

    /// The uptime, in nanoseconds, of the last activity; `0` before the first touch of a clock made
    /// with `started: false`, or while paused.
    package var lastActivity: UInt64 {
        last.current
    }

    /// When an exchange with this clock times out: `idleTimeout` after its last activity, or at
    /// `deadline` when that is earlier (uptime nanoseconds; `.max` for none).
    ///
    /// Before the first touch of a clock made with `started: false`, or while paused, idle time counts
    /// from now: the transport's task is still waiting for a thread of a busy pool, or for a reader,
    /// which is not the server being silent, so the idle timeout is looked at again an idle timeout
    /// later (the deadline still bounds the whole exchange).
    package func due(idleTimeout: UInt64, deadline: UInt64) -> UInt64 {
        let last = lastActivity
        let since = last == 0 ? DispatchTime.now().uptimeNanoseconds : last
        let (idleDue, overflow) = since.addingReportingOverflow(idleTimeout)
        return overflow ? deadline : min(deadline, idleDue)
    }
}
