import Dispatch
import Foundation

/// One exchange with a transport whose outcome is decided once: by the transport, by a cancel, or by
/// a timeout (the deadline, or the idle timeout of a transport that reports its activity), whichever
/// comes first.
///
/// The caller waits on a continuation, not on the transport's task, so it resumes at once when a
/// cancel or the deadline decides, however long the transport takes to notice.
final class PendingExchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<RawResponse, any Error>?
        /// The outcome when it was decided before the caller waited: a cancel or a timeout, which
        /// ``start(_:_:)`` then resumes the caller with. An outcome decided later goes straight to the
        /// waiting caller and is not kept.
        var earlyOutcome: ApiError?
        var isDecided = false
        var engine: Task<Void, Never>?
        var hasDeadline = false
    }

    private let state = LockedValue(State())

    /// When the exchange must have ended, in uptime nanoseconds; `.max` for no deadline.
    private let deadline: UInt64
    /// The idle timeout the session enforces, in nanoseconds; `.max` when the transport enforces its own.
    private let idleTimeout: UInt64
    /// The transport's control, which the idle timeout counts from and which learns how the exchange
    /// was ended.
    private let control: ExchangeControl?

    /// An exchange that ends by `options`' deadline and, when the transport reports its activity to
    /// `options.control`, after `options.idleTimeout` without any.
    init(options: TransportOptions) {
        deadline = options.deadline == .distantFuture ? .max : options.deadline.uptimeNanoseconds
        control = options.control
        idleTimeout = options.control == nil ? .max : options.idleTimeoutNanoseconds
    }

    /// Whether the outcome is decided: the caller has been, or is about to be, resumed.
    var isDecided: Bool {
        state.withLock { $0.isDecided }
    }

    /// When the exchange times out unless it shows activity first: its deadline, or its idle timeout
    /// after its last activity, whichever is earlier; `.max` for never. Idle time counts from when the
    /// transport's task starts (see ``ExchangeControl/due``).
    var due: UInt64 {
        guard let control, idleTimeout != .max else { return deadline }
        return control.due
    }

    /// Starts `operation` in a task of its own, and the shared timer for the exchange's timeouts; resumes
    /// `continuation` at once when the outcome was already decided (a cancel came first).
    func start(
        _ continuation: CheckedContinuation<RawResponse, any Error>,
        _ operation: @escaping @Sendable () async throws -> RawResponse
    ) {
        let decided = state.withLock { state -> ApiError? in
            if state.isDecided { return state.earlyOutcome ?? .cancelled }
            state.continuation = continuation
            return nil
        }
        if let decided {
            continuation.resume(throwing: decided)
            return
        }
        let engine = Task { [control] in
            control?.touch()  // the transport starts: idle time counts from now (see `due`)
            do {
                finish(.success(try await operation()))
            } catch {
                finish(.failure(ApiError(error)))
            }
        }
        let due = due
        let hasDeadline = due != .max
        let finished = state.withLock { state in
            state.engine = engine
            state.hasDeadline = hasDeadline
            return state.isDecided
        }
        if finished {
            engine.cancel()
        } else if hasDeadline {
            DeadlineTimer.shared.add(self, due: due)
            // Decided while the entry was being added: the entry would stay until it is due.
            if state.withLock({ $0.isDecided }) {
                DeadlineTimer.shared.remove(self)
            }
        }
    }

    /// Decides the outcome unless it is decided already: resumes the waiting caller, cancels the
    /// transport's task (when something else decided) and forgets the deadline.
    ///
    /// The outcome is moved to the caller, not copied: a response is handed over once.
    func finish(_ outcome: consuming Result<RawResponse, ApiError>) {
        let failure: ApiError?
        if case .failure(let reason) = outcome { failure = reason } else { failure = nil }
        let taken = state.withLock {
            state -> (CheckedContinuation<RawResponse, any Error>?, Task<Void, Never>?, Bool)? in
            guard !state.isDecided else { return nil }
            state.isDecided = true
            let continuation = state.continuation.take()
            if continuation == nil {
                // Decided before the caller waits (only a cancel or a timeout can be, since the
                // transport starts once it waits): kept for `start`.
                state.earlyOutcome = failure
            }
            return (continuation, state.engine, state.hasDeadline)
        }
        guard let (continuation, engine, hasDeadline) = taken else { return }
        if hasDeadline {
            DeadlineTimer.shared.remove(self)
        }
        if let failure {
            if failure == .cancelled || failure == .timeout {
                control?.end(failure)
            }
            engine?.cancel()
        }
        continuation?.resume(with: outcome)
    }
}

extension PendingExchange: TimedExchange {
    func timeOut() {
        finish(.failure(.timeout))
    }
}
