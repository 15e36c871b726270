/// An adapter for an engine that cannot stop an exchange when told: each exchange of `base` runs in a
/// task of its own, and the caller stops waiting for it the moment the exchange is ended — cancelled,
/// idle too long or past its deadline — however long the engine takes to notice.
///
/// A ``Transport`` ends an exchange when its ``ExchangeControl`` ends it (see ``Transport``). An engine
/// that cannot — a blocking library, a callback API without a cancel — still gets every guarantee of the
/// session behind this adapter, at the cost of one task per exchange; what it delivers after the
/// exchange was ended, progress included, is dropped.
///
/// ```swift
/// let session = ApiSession(
///     hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
///     transport: DetachedTransport(BlockingEngineTransport(), reportsActivity: false)
/// )
/// ```
public struct DetachedTransport: Transport {
    /// The engine's transport.
    public let base: any Transport
    /// Whether `base` touches the exchange's control whenever a byte moves. When `false`, only the
    /// deadline is kept here and the idle timeout is left to the engine.
    public let reportsActivity: Bool

    /// Wraps `base`.
    /// - Parameters:
    ///   - base: The engine's transport.
    ///   - reportsActivity: Whether `base` touches ``TransportOptions/control`` as bytes move; when it
    ///     does not, the engine keeps its own idle timeout and the adapter keeps only the deadline.
    public init(_ base: any Transport, reportsActivity: Bool) {
        self.base = base
        self.reportsActivity = reportsActivity
    }

    /// Sends `request` with `base` in a task of its own, and returns its response, or throws the reason
    /// as soon as the exchange is ended.
    /// - Parameters:
    ///   - request: The request.
    ///   - options: The exchange's options and control.
    /// - Returns: The response of `base`.
    /// - Throws: ``ApiError/cancelled`` or ``ApiError/timeout`` once the exchange is ended, else what
    ///   `base` throws.
    public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        let control = ExchangeControl.for(options)
        let ownsControl = options.control == nil
        defer {
            if ownsControl { control.finish() }
        }
        if !reportsActivity {
            control.pause()
        }
        let exchange = Exchange()
        var options = options
        options.control = control
        if let progress = options.progress {
            // The engine may go on for a moment after the exchange was ended: its reports stop then.
            options.progress = { value in
                if !exchange.isDecided { progress(value) }
            }
        }
        control.onEndDetached { reason in exchange.finish(.failure(reason)) }
        let engine = options
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation) {
                    try await base.send(request, options: engine)
                }
            }
        } onCancel: {
            control.end(.cancelled)
        }
    }

    /// Opens a WebSocket with `base`.
    /// - Parameters:
    ///   - request: The opening handshake's request.
    ///   - options: The connection's limits.
    /// - Returns: What `base` returns.
    /// - Throws: What `base` throws.
    public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
        try await base.openWebSocket(request, options: options)
    }
}

extension DetachedTransport {
    /// One exchange whose outcome is decided once: by the engine, or by the end of its control, whichever
    /// comes first. The caller waits on a continuation, not on the engine's task, so it resumes at once.
    final class Exchange: Sendable {
        private struct State {
            var continuation: CheckedContinuation<RawResponse, any Error>?
            /// The end decided before the caller waited, which ``start(_:_:)`` resumes the caller with.
            var earlyOutcome: ApiError?
            var isDecided = false
            var engine: Task<Void, Never>?
        }

        private let state = LockedValue(State())

        /// Whether the outcome is decided: the caller has been, or is about to be, resumed.
        var isDecided: Bool {
            state.withLock { $0.isDecided }
        }

        /// Starts `operation` in a task of its own; resumes `continuation` at once when the outcome was
        /// decided already.
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
            let engine = Task {
                do {
                    finish(.success(try await operation()))
                } catch {
                    finish(.failure(ApiError(error)))
                }
            }
            let finished = state.withLock { state in
                state.engine = engine
                return state.isDecided
            }
            if finished {
                engine.cancel()
            }
        }

        /// Decides the outcome unless it is decided already: resumes the waiting caller, and cancels the
        /// engine's task when something else decided. The outcome is moved to the caller, not copied.
        func finish(_ outcome: consuming Result<RawResponse, ApiError>) {
            let failure: ApiError?
            if case .failure(let reason) = outcome { failure = reason } else { failure = nil }
            let taken = state.withLock {
                state -> (CheckedContinuation<RawResponse, any Error>?, Task<Void, Never>?)? in
                guard !state.isDecided else { return nil }
                state.isDecided = true
                let continuation = state.continuation.take()
                if continuation == nil {
                    // Decided before the caller waits (only an end can be, since the engine starts once
                    // it waits): kept for `start`.
                    state.earlyOutcome = failure
                }
                return (continuation, state.engine)
            }
            guard let (continuation, engine) = taken else { return }
            if failure != nil {
                engine?.cancel()
            }
            continuation?.resume(with: outcome)
        }
    }
}
