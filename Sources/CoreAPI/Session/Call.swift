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

    /// Sends `request` with `transport`, and ends the exchange on time whatever the transport does.
    ///
    /// The exchange ends as soon as the first of these happens: the transport returns or throws, the
    /// calling task or this call is cancelled (``ApiError/cancelled``), or `options.deadline` passes
    /// (``ApiError/timeout``). How depends on the transport's ``ExchangeControl/Timing``, the same for every
    /// transport that declares it: one that ends when told is awaited directly, and its
    /// ``ExchangeControl`` — on the process's one timer — tells it; any other runs in a task of its own
    /// that the caller does not wait for once a cancel or the deadline has decided (see
    /// ``PendingExchange``): the transport may finish its clean-up later, and what it delivers then is
    /// dropped. For a transport that reports its activity the idle timeout is decided here too.
    /// - Parameters:
    ///   - transport: The session's transport.
    ///   - timing: The transport's ``Transport/timing``, read once by the session.
    ///
    /// Inlined into the session's loop: a transport that ends when told is awaited in the caller's
    /// task, and a call through one more async function would cost it a frame and an executor check.
    @inline(__always)
    func exchange(
        _ request: ApiRequest,
        with transport: any Transport,
        timing: ExchangeControl.Timing,
        options: TransportOptions
    ) async throws -> RawResponse {
        guard case .endsWhenTold = timing else {
            return try await exchangeInTask(request, with: transport, timing: timing, options: options)
        }
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
            // The reason the session ended it wins over how the engine reported its stop.
            throw control.endReason ?? ApiError(error)
        }
    }

    /// ``exchange(_:with:timing:options:)`` for a transport that does not end when told: in a task of
    /// its own, which the caller stops waiting for at once on a cancel or at the deadline.
    private func exchangeInTask(
        _ request: ApiRequest,
        with transport: any Transport,
        timing: ExchangeControl.Timing,
        options: TransportOptions
    ) async throws -> RawResponse {
        var options = options
        if case .reportsActivity = timing {
            options.control = ExchangeControl(options: options, started: false)  // touched when its task starts
        }
        let pending = PendingExchange(options: options)
        if let progress = options.progress {
            // The transport may go on for a moment after a cancel or a timeout decided: its reports stop
            // with the decision.
            options.progress = { value in
                if !pending.isDecided { progress(value) }
            }
        }
        try begin { pending.finish(.failure(.cancelled)) }
        defer { end() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.start(continuation) { [options] in
                    try await transport.send(request, options: options)
                }
            }
        } onCancel: {
            pending.finish(.failure(.cancelled))
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
