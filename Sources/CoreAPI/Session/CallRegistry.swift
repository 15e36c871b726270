/// One call in flight, so ``ApiSession/cancelAllRequests()`` can end it wherever it waits.
///
/// Cancelling it cancels the network exchange running at that moment, and the call's own task when it
/// has one (calls with middlewares run in a task of their own, since a middleware may wait on its own,
/// for instance before a retry, and only task cancellation reaches such a wait). Each step of a call
/// checks ``isCancelled`` before it starts, so nothing new is sent once the call is cancelled.
final class CallHandle: Sendable {
    private struct State {
        var isCancelled = false
        var exchange: HandleHolder?
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
        exchange?.cancel()
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

    /// Makes `exchange` the one ``cancel()`` ends; cancels it at once when the call is already cancelled.
    func attachExchange(_ exchange: HandleHolder) {
        let cancelled = state.withLock { state in
            state.exchange = exchange
            return state.isCancelled
        }
        if cancelled { exchange.cancel() }
    }
}

/// The calls of a session in flight.
final class CallRegistry: Sendable {
    private struct State {
        var nextID = 0
        var calls: [Int: CallHandle] = [:]
    }

    private let state = LockedValue(State())

    /// Registers `call` until ``close(_:)`` with the returned identifier.
    func open(_ call: CallHandle) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.calls[state.nextID] = call
            return state.nextID
        }
    }

    func close(_ id: Int) {
        _ = state.withLock { $0.calls.removeValue(forKey: id) }
    }

    /// Cancels every registered call, newest first; the cancels run after the lock is released.
    ///
    /// Newest first, because the newest tasks are the ones still waiting for a connection: cancelled
    /// first they never get one, whereas a connection freed by cancelling an older call would be handed
    /// to a waiting task, opened and then cancelled too.
    func cancelAll() {
        let calls = state.withLock { state in
            state.calls.sorted { $0.key > $1.key }.map(\.value)
        }
        for call in calls {
            call.cancel()
        }
    }
}
