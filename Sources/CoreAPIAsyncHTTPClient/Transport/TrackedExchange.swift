#if AsyncHTTPClient
    import CoreAPI
    import Dispatch

    /// What one exchange of an `AsyncHTTPClientTransport` shares between the task that sends it,
    /// AsyncHTTPClient's event loop that reads the response and the writer of the request body: its
    /// `ExchangeControl`, whether it ended, its progress reports and the instants of its phases.
    final class TrackedExchange: Sendable {
        private struct State {
            /// Whether the response head arrived: upload progress is no longer reported after it.
            var hasHead = false
            /// The most body bytes reported sent: a request sent again reports only beyond them.
            var uploadReported: Int64 = -1
            /// Whether `end()` was called: nothing is reported or read any more.
            var isEnded = false
            /// When a connection opened for this exchange was up, if one was (see `ConnectionLog`).
            var connectionUp: ContinuousClock.Instant?
            /// When the last body byte was handed to the client, or the whole request was written.
            var bodySent: ContinuousClock.Instant?
            /// When the response head arrived.
            var headReceived: ContinuousClock.Instant?
        }

        private let state = LockedValue(State())
        /// The exchange's clock and end signal: the session's, or one of its own on the same timer.
        private let control: ExchangeControl
        private let progress: (@Sendable (TransferProgress) -> Void)?
        /// Held while a progress report runs, so reports never overlap and keep their order; only with a
        /// progress handler.
        private let reporting: LockedValue<Void>?

        /// When the transport began the exchange: the origin of its phases.
        let started = ContinuousClock.now

        init(options: TransportOptions) {
            control = ExchangeControl.for(options)
            progress = options.progress
            reporting = options.progress == nil ? nil : LockedValue(())
        }

        /// Why the control ended the exchange (a cancel, the idle timeout or the deadline); `nil` while it
        /// runs or when it ended by itself.
        var endReason: ApiError? { control.endReason }

        /// Makes `handler` what stops the attempt in flight when the control ends the exchange; at once
        /// when it has ended already.
        func onEnd(_ handler: @escaping @Sendable () -> Void) {
            control.onEnd { _ in handler() }
        }

        /// Ends the exchange with `reason` (the calling task was cancelled, with no session to tell).
        func end(_ reason: ApiError) {
            control.end(reason)
        }

        /// Whether the response head arrived.
        var hasHead: Bool { state.withLock { $0.hasHead } }

        /// Whether the exchange ended.
        var isEnded: Bool { state.withLock { $0.isEnded } }

        /// Notes that a byte moved.
        func touch() {
            control.touch()
        }

        /// Runs `wait`, a wait for the reader of a stream rather than for the peer, without counting it
        /// as idle time; the end of the wait counts as activity.
        func waitingForReader(_ wait: () async throws -> Void) async throws {
            try await control.waitingForReader(wait)
        }

        /// Notes that the response head arrived: upload progress is no longer reported.
        func receivedHead() {
            control.touch()
            let now = ContinuousClock.now
            state.withLock {
                $0.hasHead = true
                $0.headReceived = now
            }
        }

        /// Notes that a connection opened for this exchange was up at `instant`.
        func openedConnection(at instant: ContinuousClock.Instant) {
            state.withLock { $0.connectionUp = instant }
        }

        /// The phases of the exchange, which ends now; whether its connection was reused only when
        /// `knowsConnections` (the transport's own client, whose connections it hears of).
        func phases(knowsConnections: Bool) -> ResponseTiming.Phases {
            let end = ContinuousClock.now
            let started = started
            return state.withLock { state in
                var phases = ResponseTiming.Phases()
                if knowsConnections {
                    phases.reusedConnection = state.connectionUp == nil
                    phases.connection = state.connectionUp.map { .zero..<($0 - started) }
                }
                if var sent = state.bodySent {
                    // A server may answer before the body is through: the phases stay in order.
                    if let head = state.headReceived {
                        sent = min(sent, head)
                    }
                    let from = phases.connection?.upperBound ?? .zero
                    phases.request = from..<max(from, sent - started)
                }
                if let head = state.headReceived {
                    phases.response = (head - started)..<(end - started)
                }
                return phases
            }
        }

        /// Notes that the whole request was written.
        func sentRequest() {
            let now = ContinuousClock.now
            state.withLock { $0.bodySent = now }
        }

        /// Notes that `sent` of `total` body bytes were handed to the client, and reports it unless the
        /// response head has arrived already, or more was reported before (by an attempt that met a
        /// closed connection).
        func sent(_ sent: Int64, of total: Int64?) {
            control.touch()
            let now = ContinuousClock.now
            let reports = state.withLock { state in
                state.bodySent = now
                guard !state.hasHead, sent > state.uploadReported else { return false }
                state.uploadReported = sent
                return true
            }
            if reports {
                report(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: total), unlessHead: true)
            }
        }

        /// Reports download progress.
        func received(_ progress: TransferProgress) {
            report(progress)
        }

        /// Reports download progress.
        func received(_ completed: Int64, of total: Int64?) {
            report(TransferProgress(direction: .download, completedBytes: completed, totalBytes: total))
        }

        /// Ends the exchange: nothing is reported after this returns.
        func end() {
            if let reporting {
                reporting.withLock { _ in
                    state.withLock { $0.isEnded = true }
                }
            } else {
                state.withLock { $0.isEnded = true }
            }
            control.finish()
        }

        /// Calls the progress handler with `value`, one report at a time, unless the exchange ended (or,
        /// with `unlessHead`, its response head arrived).
        private func report(_ value: TransferProgress, unlessHead: Bool = false) {
            guard let progress, let reporting else { return }
            reporting.withLock { _ in
                let skipped = state.withLock { $0.isEnded || (unlessHead && $0.hasHead) }
                if !skipped {
                    progress(value)
                }
            }
        }
    }
#endif
