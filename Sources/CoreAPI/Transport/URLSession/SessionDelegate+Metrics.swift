import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The phases of a task's exchange, from URLSession's metrics where the platform fills them.
extension SessionDelegate {
    /// Keeps the phases of the task's last transaction (a task has one: redirects are not followed).
    ///
    /// On Apple platforms URLSession fills the transaction's dates and delivers the metrics before the
    /// task completes. FoundationNetworking on Linux (Swift 6.3.1) never calls this method; the request
    /// and response phases are then measured from the delegate's own events (see ``phases(of:)``).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let transaction = metrics.transactionMetrics.last else { return }
        shared.withLock { shared in
            guard let state = shared.tasks[ObjectIdentifier(task)], state.measuresPhases else { return }
            state.phases = Self.phases(of: transaction, since: state.started)
        }
    }

    /// The phases of a task that ends now: its metrics', or, without them, the request phase until the
    /// last body bytes were reported sent (a request with a body) and the response phase from the head's
    /// arrival until now; `nil` when the call does not measure them (``TransportOptions/measuresPhases``).
    func phases(of state: TaskState) -> ResponseTiming.Phases? {
        guard state.measuresPhases else { return nil }
        let now = Date()
        return shared.withLock { _ in
            var phases = state.phases ?? ResponseTiming.Phases()
            if phases.request == nil, let sent = state.bodySent {
                phases.request = Self.range(from: state.started, to: sent, since: state.started)
            }
            if phases.response == nil, let head = state.headReceived {
                phases.response = Self.range(from: head, to: now, since: state.started)
            }
            return phases
        }
    }

    /// The phases of `transaction` as offsets from `start`.
    static func phases(
        of transaction: URLSessionTaskTransactionMetrics,
        since start: Date
    ) -> ResponseTiming.Phases {
        var phases = ResponseTiming.Phases()
        #if !canImport(FoundationNetworking)
            phases.reusedConnection = transaction.isReusedConnection
        #endif
        phases.domainLookup = range(
            from: transaction.domainLookupStartDate,
            to: transaction.domainLookupEndDate,
            since: start
        )
        phases.connection = range(from: transaction.connectStartDate, to: transaction.connectEndDate, since: start)
        phases.secureConnection = range(
            from: transaction.secureConnectionStartDate,
            to: transaction.secureConnectionEndDate,
            since: start
        )
        phases.request = range(from: transaction.requestStartDate, to: transaction.requestEndDate, since: start)
        phases.response = range(from: transaction.responseStartDate, to: transaction.responseEndDate, since: start)
        return phases
    }

    /// `from..<to` as offsets from `start`, never before it; `nil` without both dates or when they are in
    /// the wrong order.
    static func range(from: Date?, to: Date?, since start: Date) -> Range<Duration>? {
        guard let from, let to, from <= to else { return nil }
        func offset(_ date: Date) -> Duration {
            .nanoseconds(Int64(max(0, date.timeIntervalSince(start)) * 1_000_000_000))
        }
        return offset(from)..<offset(to)
    }
}
