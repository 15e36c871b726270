/// Finding, counting and cancelling the calls in flight.
extension ApiSession {
    /// The calls in flight, oldest first. Each caller of identical calls that share one exchange
    /// (``CallOptions/sharesIdenticalCalls``) is a call of its own here. A call started with ``start(_:)``
    /// is listed once its task has begun, which on a busy machine can be a moment after the call returned.
    public var callsInFlight: [ApiSession.CallInfo] {
        calls.infos()
    }

    /// Whether a call of `type` is in flight.
    public func isPerforming<M: ApiMethod>(_ type: M.Type) -> Bool {
        calls.infos().contains { $0.performs(type) }
    }

    /// Whether a call with `key` is in flight.
    public func isPerforming(key: CallKey) -> Bool {
        calls.infos().contains { $0.key == key }
    }

    /// Cancels every call in flight, in the network or waiting in a middleware; each ends with
    /// ``ApiError/cancelled``.
    public func cancelAllRequests() {
        // Each call's handle cancels its network exchange and, when the call has one, its task.
        calls.cancelAll()
    }

    /// Cancels every call of `type` in flight; each ends with ``ApiError/cancelled``, and other calls go
    /// on. Returns how many calls it cancelled, counting a call already ending as well. A shared
    /// exchange ends only when every caller waiting for it has been cancelled.
    @discardableResult
    public func cancelCalls<M: ApiMethod>(of type: M.Type) -> Int {
        calls.cancel { $0.performs(type) }
    }

    /// Cancels every call in flight whose method has `key` as its ``CallOptions/callKey``. Returns how many calls
    /// it cancelled, counting a call already ending as well.
    @discardableResult
    public func cancelCalls(withKey key: CallKey) -> Int {
        calls.cancel { $0.key == key }
    }

    /// Cancels every call in flight that `predicate` selects. Returns how many calls it
    /// cancelled, counting a call already ending as well.
    @discardableResult
    public func cancelCalls(where predicate: (ApiSession.CallInfo) -> Bool) -> Int {
        calls.cancel(where: predicate)
    }

    /// The number of calls in flight now, then after each change: the successor of a network activity
    /// indicator. Only the newest count is kept while the consumer is busy; the stream ends when it is
    /// released (or the task iterating it is cancelled) or the session is released.
    ///
    /// ```swift
    /// for await count in session.callCounts() {
    ///     spinner.isVisible = count > 0
    /// }
    /// ```
    public func callCounts() -> AsyncStream<Int> {
        calls.counts()
    }

    /// A value that performs only methods of type `type` and cancels only its own calls: hand a
    /// component just what it may call.
    public func provider<M: ApiMethod>(for type: M.Type) -> MethodProvider<M> {
        MethodProvider(session: self)
    }
}
