import Dispatch
import Foundation

/// One call in flight, so ``ApiSession/cancelAllRequests()`` can end it wherever it waits.
///
/// Cancelling it ends the exchange with the transport running at that moment, and the call's own task
/// when it has one (calls with middlewares run in a task of their own, since a middleware may wait on
/// its own, for instance before a retry, and only task cancellation reaches such a wait). Each step of
/// a call checks ``isCancelled`` before it starts, so nothing new is sent once the call is cancelled.
final class Call: Sendable {
    private struct State {
        var isCancelled = false
        var exchange: PendingExchange?
        var cancelTask: (@Sendable () -> Void)?
    }

    private let state = LockedValue(State())

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the exchange in flight and the call's task, and every later step.
    func cancel() {
        let (exchange, cancelTask) = state.withLock { state in
            state.isCancelled = true
            return (state.exchange, state.cancelTask)
        }
        exchange?.finish(.failure(.cancelled))
        cancelTask?()
    }

    /// Makes `cancelTask` part of ``cancel()``; calls it at once when the call is already cancelled.
    func attachTask(_ cancelTask: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.cancelTask = cancelTask
            return state.isCancelled
        }
        if cancelled { cancelTask() }
    }

    /// Runs one exchange with the transport, and ends it on time whatever the transport does.
    ///
    /// The transport runs in a task of its own. The call ends as soon as the first of these happens:
    /// the transport returns or throws, the calling task or this call is cancelled
    /// (``ApiError/cancelled``), or `deadline` passes (``ApiError/timeout``). In the last two cases the
    /// transport's task is cancelled and may finish its clean-up later; what it delivers then is
    /// dropped.
    func exchange(
        deadline: DispatchTime,
        _ operation: @escaping @Sendable () async throws -> RawResponse
    ) async throws -> RawResponse {
        let pending = PendingExchange()
        let cancelled = state.withLock { state in
            state.exchange = pending
            return state.isCancelled
        }
        defer { state.withLock { if $0.exchange === pending { $0.exchange = nil } } }
        if cancelled {
            throw ApiError.cancelled
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.start(continuation, deadline: deadline, operation)
            }
        } onCancel: {
            pending.finish(.failure(.cancelled))
        }
    }
}
