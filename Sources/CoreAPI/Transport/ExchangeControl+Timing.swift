extension ExchangeControl {
    /// How a transport's exchanges end on time: what it does with ``TransportOptions/control``, and so how
    /// the session runs it. Every case gets the same guarantee — a cancelled or overdue call ends within
    /// milliseconds — through the process's one timer.
    public enum Timing: Sendable {
        /// The transport keeps time itself: ``TransportOptions/control`` is `nil`, so a transport that uses
        /// ``ExchangeControl/for(_:)`` gets a control of its own on the same timer. The session runs each
        /// exchange in a task of its own and stops waiting for it at once on a cancel or at the deadline;
        /// what the transport delivers later is dropped. The default, right for any transport.
        case keptByTransport
        /// The transport touches ``TransportOptions/control`` whenever a byte moves, and the session's timer
        /// also ends the exchange after ``TransportOptions/idleTimeout`` without any. Each exchange still
        /// runs in a task of its own, which a cancel or a timeout cancels.
        case reportsActivity
        /// As ``reportsActivity``, and the transport ends the exchange at once — throwing the reason — when
        /// the control's ``ExchangeControl/onEnd(_:)`` handler runs. The session then awaits it in the
        /// caller's task, with no task of its own: the fastest path.
        case endsWhenTold
    }
}
