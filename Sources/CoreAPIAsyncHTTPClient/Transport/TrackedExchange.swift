#if AsyncHTTPClient
    import CoreAPI
    import NIOConcurrencyHelpers
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
            /// When a connection opened for this exchange was up, if one was (see `ConnectionLog`); `0`
            /// for none. Instants are uptime nanoseconds (`DispatchTime`): a plain integer to store and
            /// subtract, turned into durations only for the phases.
            var connectionUp: UInt64 = 0
            /// When the last body byte was handed to the client, or the whole request was written; `0` for
            /// not yet.
            var bodySent: UInt64 = 0
            /// When the response head arrived; `0` for not yet.
            var headReceived: UInt64 = 0
            /// The response of the attempt that finished, until the transport takes it.
            var response: RawResponse?
        }

        private let state = NIOLockedValueBox(State())
        /// The exchange's clock and end signal: the session's, or one of its own on the same timer.
        private let control: ExchangeControl
        /// Whether the control is the exchange's own (no session gave one), which `end()` finishes; the
        /// session finishes its own.
        private let ownsControl: Bool
        private let progress: (@Sendable (TransferProgress) -> Void)?
        /// Held while a progress report runs, so reports never overlap and keep their order; only with a
        /// progress handler.
        private let reporting: NIOLockedValueBox<Void>?

        /// Whether the call asks for the exchange's phases (``TransportOptions/measuresPhases``): without
        /// them no clock is read for the instants below and the response gets none.
        let measuresPhases: Bool
        /// When the transport began the exchange, in uptime nanoseconds: the origin of its phases; `0`
        /// when they are not measured.
        let started: UInt64

        init(options: TransportOptions) {
            measuresPhases = options.measuresPhases
            started = options.measuresPhases ? DispatchTime.now().uptimeNanoseconds : 0
            control = ExchangeControl.for(options)
            ownsControl = options.control == nil
            progress = options.progress
            reporting = options.progress == nil ? nil : NIOLockedValueBox(())
        }

        /// Why the control ended the exchange (a cancel, the idle timeout or the deadline); `nil` while it
        /// runs or when it ended by itself.
        var endReason: ApiError? { control.endReason }

        /// Makes `handler` what stops the attempt in flight when the control ends the exchange, with the
        /// reason; at once when it has ended already. The handler is the control's as it is: a wrapper
        /// would be one more allocation per attempt.
        func onEnd(_ handler: @escaping @Sendable (ApiError) -> Void) {
            control.onEnd(handler)
        }

        /// Ends the exchange with `reason` (the calling task was cancelled, with no session to tell).
        func end(_ reason: ApiError) {
            control.end(reason)
        }

        /// Whether the response head arrived.
        var hasHead: Bool { state.withLockedValue { $0.hasHead } }

        /// Whether the exchange ended.
        var isEnded: Bool { state.withLockedValue { $0.isEnded } }

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
            let now = measuresPhases ? DispatchTime.now().uptimeNanoseconds : 0
            state.withLockedValue {
                $0.hasHead = true
                $0.headReceived = now
            }
        }

        /// Keeps the response of the attempt that finished, for `response(kept:knowsConnections:)`.
        func deliver(_ response: RawResponse) {
            state.withLockedValue { $0.response = response }
        }

        /// Notes that a connection opened for this exchange was up at `instant` (uptime nanoseconds).
        func openedConnection(at instant: UInt64) {
            state.withLockedValue { $0.connectionUp = instant }
        }

        /// The response the exchange ended with, `kept` or else the one `deliver(_:)` kept (taken, once),
        /// with the phases of the exchange, which ends now; `nil` when there is neither. Whether its
        /// connection was reused is told only when `knowsConnections` (the transport's own client, whose
        /// connections it hears of). One lock for the response and the instants.
        func response(kept: RawResponse?, knowsConnections: Bool) -> RawResponse? {
            guard measuresPhases else {
                let delivered = state.withLockedValue { $0.response.take() }
                return kept ?? delivered
            }
            let end = DispatchTime.now().uptimeNanoseconds
            let (delivered, connectionUp, bodySent, headReceived) = state.withLockedValue { state in
                defer { state.response = nil }
                return (state.response, state.connectionUp, state.bodySent, state.headReceived)
            }
            guard var response = kept ?? delivered else { return nil }
            // Each instant as a duration since the start; none is before it.
            let started = started
            func since(_ instant: UInt64) -> Duration {
                .nanoseconds(Int64(clamping: instant &- min(instant, started)))
            }
            var phases = ResponseTiming.Phases()
            if knowsConnections {
                phases.reusedConnection = connectionUp == 0
                phases.connection = connectionUp == 0 ? nil : .zero..<since(connectionUp)
            }
            if bodySent != 0 {
                // A server may answer before the body is through: the phases stay in order.
                let sent = headReceived != 0 ? min(bodySent, headReceived) : bodySent
                let from = phases.connection?.upperBound ?? .zero
                phases.request = from..<max(from, since(sent))
            }
            if headReceived != 0 {
                phases.response = since(headReceived)..<max(since(headReceived), since(end))
            }
            response.phases = phases
            return response
        }

        /// Notes that the whole request was written.
        func sentRequest() {
            guard measuresPhases else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            state.withLockedValue { $0.bodySent = now }
        }

        /// Notes that `sent` of `total` body bytes were handed to the client, and reports it unless the
        /// response head has arrived already, or more was reported before (by an attempt that met a
        /// closed connection).
        func sent(_ sent: Int64, of total: Int64?) {
            control.touch()
            let now = measuresPhases ? DispatchTime.now().uptimeNanoseconds : 0
            let reports = state.withLockedValue { state in
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
                reporting.withLockedValue { _ in
                    state.withLockedValue { $0.isEnded = true }
                }
            } else {
                state.withLockedValue { $0.isEnded = true }
            }
            if ownsControl {
                control.finish()
            }
        }

        /// Calls the progress handler with `value`, one report at a time, unless the exchange ended (or,
        /// with `unlessHead`, its response head arrived).
        private func report(_ value: TransferProgress, unlessHead: Bool = false) {
            guard let progress, let reporting else { return }
            reporting.withLockedValue { _ in
                let skipped = state.withLockedValue { $0.isEnded || (unlessHead && $0.hasHead) }
                if !skipped {
                    progress(value)
                }
            }
        }
    }
#endif
