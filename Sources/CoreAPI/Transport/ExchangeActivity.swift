import Dispatch

/// When an exchange last sent or received a byte: the clock of the idle timeout the session enforces for
/// an ``ActivityReportingTransport``.
///
/// The transport touches it; the session's one deadline timer reads it only when a timeout may be due,
/// so a busy exchange costs one clock read and one uncontended lock per touch and no timer work.
package final class ExchangeActivity: Sendable {
    private let last: LockedValue<UInt64>

    /// A clock whose last activity is now.
    package init() {
        last = LockedValue(DispatchTime.now().uptimeNanoseconds)
    }

    /// Records activity now.
    package func touch() {
        let now = DispatchTime.now().uptimeNanoseconds
        last.withLock { $0 = now }
    }

    /// The uptime, in nanoseconds, of the last activity.
    package var lastActivity: UInt64 {
        last.current
    }
}
