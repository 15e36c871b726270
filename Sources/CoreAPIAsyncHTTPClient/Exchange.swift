#if AsyncHTTPClient
    import CoreAPI
    import Dispatch

    /// What one exchange of an `AsyncHTTPClientTransport` shares between the task that sends it, its
    /// watchdog (when the session does not enforce its timeouts) and AsyncHTTPClient's task that pulls
    /// the request body: when a byte last moved, whether the exchange timed out or ended, and its
    /// progress reports.
    final class Exchange: Sendable {
        /// Thrown by `watch()` when the idle timeout or the deadline passes.
        struct TimedOut: Error {}

        private struct State {
            var isTimedOut = false
            /// Whether the response head arrived: upload progress is no longer reported after it.
            var hasHead = false
            /// The most body bytes reported sent: a request sent again reports only beyond them.
            var uploadReported: Int64 = -1
            /// Whether `end()` was called: nothing is reported or read any more.
            var isEnded = false
        }

        private let state = LockedValue(State())
        /// When a byte last moved: the session's clock when it enforces the timeouts, else this one's.
        private let activity: ExchangeActivity
        /// The idle timeout in nanoseconds; `.max` for none.
        private let idleTimeout: UInt64
        /// The deadline in uptime nanoseconds; `.max` for none.
        private let deadline: UInt64
        private let progress: (@Sendable (TransferProgress) -> Void)?
        /// Held while a progress report runs, so reports never overlap and keep their order.
        private let reporting = LockedValue(())

        init(options: TransportOptions) {
            if let activity = options.activity {
                // The session ends the exchange on time: nothing to watch here.
                self.activity = activity
                idleTimeout = .max
                deadline = .max
            } else {
                activity = ExchangeActivity()
                idleTimeout = options.idleTimeoutNanoseconds
                deadline = options.deadline == .distantFuture ? .max : options.deadline.uptimeNanoseconds
            }
            progress = options.progress
        }

        /// Whether the exchange has an idle timeout or a deadline to watch.
        var hasClock: Bool { idleTimeout != .max || deadline != .max }

        /// Whether `watch()` found the exchange idle for too long or past its deadline.
        var isTimedOut: Bool { state.withLock { $0.isTimedOut } }

        /// Whether the response head arrived.
        var hasHead: Bool { state.withLock { $0.hasHead } }

        /// Whether the exchange ended.
        var isEnded: Bool { state.withLock { $0.isEnded } }

        /// Notes that a byte moved.
        func touch() {
            activity.touch()
        }

        /// Runs `wait`, a wait for the reader of a stream rather than for the peer, without counting it
        /// as idle time; the end of the wait counts as activity.
        func waitingForReader(_ wait: () async throws -> Void) async throws {
            activity.pause()
            defer { activity.touch() }
            try await wait()
        }

        /// Notes that the response head arrived: upload progress is no longer reported.
        func receivedHead() {
            activity.touch()
            state.withLock { $0.hasHead = true }
        }

        /// Notes that `sent` of `total` body bytes were handed to the client, and reports it unless the
        /// response head has arrived already, or more was reported before (by an attempt that met a
        /// closed connection).
        func sent(_ sent: Int64, of total: Int64) {
            activity.touch()
            let reports = state.withLock { state in
                guard !state.hasHead, sent > state.uploadReported else { return false }
                state.uploadReported = sent
                return true
            }
            if reports {
                report(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: total), unlessHead: true)
            }
        }

        /// Reports download progress.
        func received(_ completed: Int64, of total: Int64?) {
            report(TransferProgress(direction: .download, completedBytes: completed, totalBytes: total))
        }

        /// Ends the exchange: nothing is reported after this returns.
        func end() {
            reporting.withLock { _ in
                state.withLock { $0.isEnded = true }
            }
        }

        /// Returns when the idle timeout or the deadline has passed, throwing `TimedOut`; throws
        /// `CancellationError` when cancelled first.
        func watch() async throws {
            while true {
                let now = DispatchTime.now().uptimeNanoseconds
                let due = activity.due(idleTimeout: idleTimeout, deadline: deadline)
                if now >= due {
                    state.withLock { $0.isTimedOut = true }
                    throw TimedOut()
                }
                try await Task.sleep(nanoseconds: due - now)
            }
        }

        /// Calls the progress handler with `value`, one report at a time, unless the exchange ended (or,
        /// with `unlessHead`, its response head arrived).
        private func report(_ value: TransferProgress, unlessHead: Bool = false) {
            guard let progress else { return }
            reporting.withLock { _ in
                let skipped = state.withLock { $0.isEnded || (unlessHead && $0.hasHead) }
                if !skipped {
                    progress(value)
                }
            }
        }
    }
#endif
