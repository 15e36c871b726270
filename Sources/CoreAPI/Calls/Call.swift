import Dispatch
import Foundation

/// One call in flight, so ``ApiSession/cancelAllRequests()`` can end it wherever it waits.
///
/// Cancelling it ends the exchange with the transport running at that moment, and the call's own task
/// when it has one (a call with a middleware that may wait on its own, for instance before a retry,
/// runs in a task of its own, since only task cancellation reaches such a wait: see
/// ``Middleware/waitsOnlyInNext``). Each step of
/// a call checks ``isCancelled`` before it starts, so nothing new is sent once the call is cancelled.
///
/// A handle on the call's locked state, which is its one allocation: copies are the same call.
struct Call: Sendable {
    private struct State {
        var isCancelled = false
        /// Ends the exchange in flight, if any.
        var cancelExchange: (@Sendable () -> Void)?
        var cancelTask: (@Sendable () -> Void)?
        /// What middlewares wrap each exchange of the call with (``MiddlewareContext/withEachExchange(_:perform:)``).
        var exchangeWrappers = ExchangeWrappers()
    }

    private let state: LockedValue<State>

    /// A call whose exchanges pass `exchangeWrappers`, none unless given.
    init(exchangeWrappers: ExchangeWrappers = ExchangeWrappers()) {
        state = LockedValue(State(exchangeWrappers: exchangeWrappers))
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the exchange in flight and the call's task, and every later step.
    func cancel() {
        let (cancelExchange, cancelTask) = state.withLock { state in
            state.isCancelled = true
            return (state.cancelExchange, state.cancelTask)
        }
        cancelExchange?()
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

    /// Adds `wrap` inside the wrappers added before it, and returns the number to remove it with.
    func addExchangeWrapper(_ wrap: @escaping ExchangeWrappers.Wrapper) -> Int {
        state.withLock { $0.exchangeWrappers.add(wrap) }
    }

    /// Removes the wrapper `addExchangeWrapper(_:)` returned `id` for.
    func removeExchangeWrapper(_ id: Int) {
        state.withLock { $0.exchangeWrappers.remove(id) }
    }

    /// The exchange wrappers in effect.
    var exchangeWrappers: ExchangeWrappers {
        state.withLock { $0.exchangeWrappers }
    }

    /// The exchange wrappers in effect, or `nil` once the call is cancelled: both under one lock, as
    /// each exchange starts.
    var wrappersUnlessCancelled: ExchangeWrappers? {
        state.withLock { $0.isCancelled ? nil : $0.exchangeWrappers }
    }

    /// Sends `request` with `transport`, and ends the exchange on time.
    ///
    /// The exchange ends as soon as the first of these happens: the transport returns or throws, the
    /// calling task or this call is cancelled (``ApiError/cancelled``), or the idle timeout or the deadline
    /// of `options` passes (``ApiError/timeout``). The transport gets the exchange's ``ExchangeControl`` —
    /// on the process's one timer — in its options, and ends when the control tells it (an engine that
    /// cannot runs behind ``DetachedTransport``); the reason the control ended with wins over how the
    /// engine reported its stop.
    ///
    /// Inlined into the session's loop: the transport is awaited in the caller's task, and a call through
    /// one more async function would cost it a frame and an executor check.
    @inline(__always)
    func exchange(
        _ request: ApiRequest,
        with transport: any Transport,
        options: TransportOptions
    ) async throws -> RawResponse {
        var options = options
        let control = ExchangeControl(options: options, started: true)
        options.control = control
        try begin { control.end(.cancelled) }
        defer {
            end()
            control.finish()
        }
        control.startTimer()
        do {
            return try await withTaskCancellationHandler {
                try await transport.send(request, options: options)
            } onCancel: {
                control.end(.cancelled)
            }
        } catch {
            throw control.endReason ?? ApiError(error)
        }
    }

    /// Makes `cancel` the way ``cancel()`` ends the exchange about to start, or the wait for a shared
    /// one (see ``SharedCalls``).
    /// - Throws: ``ApiError/cancelled`` when the call is cancelled already.
    func begin(_ cancel: @escaping @Sendable () -> Void) throws {
        let cancelled = state.withLock { state in
            state.cancelExchange = cancel
            return state.isCancelled
        }
        if cancelled {
            throw ApiError.cancelled
        }
    }

    /// Forgets the exchange that ended.
    func end() {
        state.withLock { $0.cancelExchange = nil }
    }
}
