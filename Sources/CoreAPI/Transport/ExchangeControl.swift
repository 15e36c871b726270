import Dispatch

/// The session's hold on one exchange, handed to a transport in ``TransportOptions/control``: the clock
/// of its idle timeout, and the signal that ends it.
///
/// A transport touches the control whenever a byte moves, and registers with ``onEnd(_:)`` what stops
/// its engine. The process has one timer for every exchange: when the idle timeout or the deadline
/// passes, or the call is cancelled, the control ends — once — and the handler runs with
/// ``ApiError/timeout`` or ``ApiError/cancelled``. The session gives every exchange a control; an engine
/// that cannot stop when told runs behind ``DetachedTransport``.
///
/// A transport that is called without a session (in its own tests, say) gets its control from
/// ``for(_:)``, which makes one on the same timer when the options carry none:
///
/// ```swift
/// func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
///     let control = ExchangeControl.for(options)
///     defer { control.finish() }
///     control.onEnd { reason in engine.stop(reason) }
///     return try await engine.send(request, onProgress: { control.touch() })
/// }
/// ```
///
/// Touching costs one clock read and one uncontended lock; the timer reads the clock only when a timeout
/// may be due.
public final class ExchangeControl: Sendable {
    private struct State {
        /// The uptime of the last activity; `0` while none counts (not started yet, or paused).
        var last: UInt64
        var endReason: ApiError?
        var handler: (@Sendable (ApiError) -> Void)?
        /// What ``DetachedTransport`` stops waiting with, beside the engine's own handler.
        var detachedHandler: (@Sendable (ApiError) -> Void)?
        /// Whether the control is on the shared timer.
        var isTimed = false
    }

    private let state: LockedValue<State>
    /// The idle timeout in nanoseconds; `.max` for none.
    let idleTimeout: UInt64
    /// The deadline in uptime nanoseconds; `.max` for none.
    let deadline: UInt64

    /// A control for the limits of `options`; its idle time counts from its first touch when `started`
    /// is `false` (the transport's task has not started yet).
    init(options: TransportOptions, started: Bool) {
        state = LockedValue(State(last: started ? DispatchTime.now().uptimeNanoseconds : 0))
        idleTimeout = options.idleTimeoutNanoseconds
        deadline = options.deadlineUptimeNanoseconds
    }

    /// The control of the exchange `options` describe: the session's, or, when there is no session (a
    /// transport's own tests), a new one on the process's one timer, which ends it after
    /// `options.idleTimeout` without a touch or at `options.deadline`. Call ``finish()`` when the exchange
    /// is over.
    /// - Parameter options: The exchange's options.
    /// - Returns: The control to touch and to register an end handler with.
    public static func `for`(_ options: TransportOptions) -> ExchangeControl {
        if let control = options.control {
            return control
        }
        let control = ExchangeControl(options: options, started: true)
        control.startTimer()
        return control
    }

    /// Records activity now: a byte was sent or received.
    public func touch() {
        let now = DispatchTime.now().uptimeNanoseconds
        // Two threads may touch at once (an engine's reads and its body writes): the later time wins
        // whichever stores first, so the clock never goes back.
        state.withLock { $0.last = max($0.last, now) }
    }

    /// Runs `wait` — a wait for the reader of a streamed body, not for the peer — without counting it as
    /// idle time; its end counts as activity.
    /// - Parameter wait: The wait.
    /// - Returns: What `wait` returns.
    /// - Throws: What `wait` throws.
    public func waitingForReader<T>(_ wait: () async throws -> T) async rethrows -> T {
        pause()
        defer { touch() }
        return try await wait()
    }

    /// Makes `handler` run beside the engine's ``onEnd(_:)`` handler when the exchange is ended, or at once
    /// when it has ended: how ``DetachedTransport`` stops waiting for an engine that cannot stop.
    func onEndDetached(_ handler: @escaping @Sendable (ApiError) -> Void) {
        let ended = state.withLock { state -> ApiError? in
            if let reason = state.endReason { return reason }
            state.detachedHandler = handler
            return nil
        }
        if let ended { handler(ended) }
    }

    /// Stops counting idle time until the next touch.
    func pause() {
        state.withLock { $0.last = 0 }
    }

    /// Makes `handler` what stops the engine when the exchange is ended — by a cancel, the idle timeout
    /// or the deadline — with the reason. It runs once, on the thread that ends the exchange (a caller's,
    /// or the timer's), so it must not block; at once when the exchange has ended already. A later
    /// registration replaces an earlier one.
    /// - Parameter handler: What stops the engine.
    public func onEnd(_ handler: @escaping @Sendable (ApiError) -> Void) {
        let ended = state.withLock { state -> ApiError? in
            if let reason = state.endReason { return reason }
            state.handler = handler
            return nil
        }
        if let ended { handler(ended) }
    }

    /// Why the exchange was ended: ``ApiError/cancelled`` or ``ApiError/timeout``; `nil` while it runs or
    /// when it ended by itself.
    public var endReason: ApiError? {
        state.withLock { $0.endReason }
    }

    /// Takes the control off the timer and forgets its end handler; the exchange is over. Calling it
    /// again, or for the session's control, does no harm.
    public func finish() {
        let timed = state.withLock { state -> Bool in
            state.handler = nil
            state.detachedHandler = nil
            defer { state.isTimed = false }
            return state.isTimed
        }
        if timed {
            DeadlineTimer.shared.remove(self)
        }
    }

    /// Ends the exchange with `reason` unless it has ended already, and runs the end handler: what the
    /// session's cancels and the timer do. A transport that gave up an exchange it keeps the time of
    /// (a control of its own from ``for(_:)``) may call it too.
    /// - Parameter reason: ``ApiError/cancelled`` or ``ApiError/timeout``.
    public func end(_ reason: ApiError) {
        let handlers = state.withLock { state -> ((@Sendable (ApiError) -> Void)?, (@Sendable (ApiError) -> Void)?)? in
            guard state.endReason == nil else { return nil }
            state.endReason = reason
            return (state.handler.take(), state.detachedHandler.take())
        }
        guard let (handler, detachedHandler) = handlers else { return }
        finish()
        handler?(reason)
        detachedHandler?(reason)
    }

    /// Puts the control on the process's one timer, which ends it with ``ApiError/timeout`` when it is
    /// ``due``.
    func startTimer() {
        // The due instant is read, and the control marked timed, under one lock.
        let due = state.withLock { state -> UInt64 in
            let due = dueInstant(after: state.last)
            state.isTimed = due != .max
            return due
        }
        guard due != .max else { return }
        DeadlineTimer.shared.add(self, due: due)
        if state.withLock({ $0.endReason != nil }) {
            DeadlineTimer.shared.remove(self)  // ended while the entry was being added
        }
    }

    /// The uptime, in nanoseconds, of the last activity; `0` before the first touch of a control that
    /// has not started, or while paused.
    var lastActivity: UInt64 {
        state.withLock { $0.last }
    }

    /// When the exchange times out: the idle timeout after its last activity, or the deadline when that
    /// is earlier (uptime nanoseconds; `.max` for never).
    ///
    /// Before the first touch of a control that has not started, or while paused, idle time counts from
    /// now: the transport's task is still waiting for a thread of a busy pool, or for a reader, which is
    /// not the server being silent, so the idle timeout is looked at again an idle timeout later (the
    /// deadline still bounds the whole exchange).
    var due: UInt64 {
        guard idleTimeout != .max else { return deadline }
        return dueInstant(after: lastActivity)
    }

    /// ``due`` when the last activity was at `last` (uptime nanoseconds; `0` for none that counts).
    private func dueInstant(after last: UInt64) -> UInt64 {
        guard idleTimeout != .max else { return deadline }
        let since = last == 0 ? DispatchTime.now().uptimeNanoseconds : last
        let (idleDue, overflow) = since.addingReportingOverflow(idleTimeout)
        return overflow ? deadline : min(deadline, idleDue)
    }
}

extension ExchangeControl: TimedExchange {
    func timeOut() {
        end(.timeout)
    }
}
