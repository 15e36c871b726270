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

    /// The uptime, in nanoseconds, of the last activity; `0` before the first touch of a clock made
    /// with `started: false`.
    package var lastActivity: UInt64 {
        last.current
    }
}
