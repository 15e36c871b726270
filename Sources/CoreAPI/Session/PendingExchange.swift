import Dispatch
import Foundation

/// One exchange with a transport whose outcome is decided once: by the transport, by a cancel, or by
/// the deadline, whichever comes first.
///
/// The caller waits on a continuation, not on the transport's task, so it resumes at once when a
/// cancel or the deadline decides, however long the transport takes to notice.
final class PendingExchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<RawResponse, any Error>?
        /// The outcome, once decided.
        var outcome: Result<RawResponse, ApiError>?
        var isDecided = false
        var engine: Task<Void, Never>?
        var hasDeadline = false
    }

    private let state = LockedValue(State())

    /// Starts `operation` in a task of its own, and a timer for `deadline`; resumes `continuation` at
    /// once when the outcome was already decided (a cancel came first).
    func start(
        _ continuation: CheckedContinuation<RawResponse, any Error>,
        deadline: DispatchTime,
        _ operation: @escaping @Sendable () async throws -> RawResponse
    ) {
        let decided = state.withLock { state -> Result<RawResponse, ApiError>? in
            if state.isDecided { return state.outcome }
            state.continuation = continuation
            return nil
        }
        if let decided {
            continuation.resume(with: decided)
            return
        }
        let engine = Task {
            do {
                finish(.success(try await operation()))
            } catch {
                finish(.failure(ApiError(error)))
            }
        }
        let hasDeadline = deadline != .distantFuture
        let finished = state.withLock { state in
            state.engine = engine
            state.hasDeadline = hasDeadline
            return state.isDecided
        }
        if finished {
            engine.cancel()
        } else if hasDeadline {
            DeadlineTimer.shared.add(self, deadline: deadline)
            // Decided while the entry was being added: the entry would stay until the deadline.
            if state.withLock({ $0.isDecided }) {
                DeadlineTimer.shared.remove(self)
            }
        }
    }

    /// Decides the outcome unless it is decided already: resumes the waiting caller, cancels the
    /// transport's task (when something else decided) and forgets the deadline.
    func finish(_ outcome: Result<RawResponse, ApiError>) {
        let taken = state.withLock {
            state -> (CheckedContinuation<RawResponse, any Error>?, Task<Void, Never>?, Bool)? in
            guard !state.isDecided else { return nil }
            state.isDecided = true
            state.outcome = outcome
            return (state.continuation.take(), state.engine, state.hasDeadline)
        }
        guard let (continuation, engine, hasDeadline) = taken else { return }
        if hasDeadline {
            DeadlineTimer.shared.remove(self)
        }
        if case .failure = outcome {
            engine?.cancel()
        }
        continuation?.resume(with: outcome)
    }
}
