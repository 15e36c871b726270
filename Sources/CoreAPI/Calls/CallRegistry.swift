/// The calls of a session in flight, with what each performs, so they can be listed, counted and
/// cancelled by type, key or group, and watched as a count.
final class CallRegistry: Sendable {
    private struct Entry {
        let id: Int
        let call: Call
        let info: ApiSession.CallInfo
        /// The provider the call was made through, if any.
        let group: ObjectIdentifier?
    }

    private struct State {
        var nextID = 0
        /// Oldest first, so by increasing ``Entry/id``: opening appends, closing finds its entry by a
        /// binary search, and no identifier is hashed on the way of every call.
        var calls: [Entry] = []
        var watchers: [Int: AsyncStream<Int>.Continuation] = [:]

        /// Tells the watchers the count; runs under the lock, so counts arrive in the order they changed.
        func report() {
            if watchers.isEmpty { return }  // most sessions: no dictionary to walk for every call
            for watcher in watchers.values {
                watcher.yield(calls.count)
            }
        }
    }

    private let state = LockedValue(State())

    /// Registers `call`, which performs `method`, until ``close(_:)`` with the returned identifier.
    func open(_ call: Call, method: any ApiMethod, key: CallKey?, group: ObjectIdentifier?) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.calls.append(
                Entry(id: state.nextID, call: call, info: ApiSession.CallInfo(method: method, key: key), group: group)
            )
            state.report()
            return state.nextID
        }
    }

    /// Forgets the call registered as `id`.
    func close(_ id: Int) {
        state.withLock { state in
            var low = 0
            var high = state.calls.count
            while low < high {
                let middle = (low + high) / 2
                if state.calls[middle].id < id { low = middle + 1 } else { high = middle }
            }
            if low < state.calls.count, state.calls[low].id == id {
                state.calls.remove(at: low)
                state.report()
            }
        }
    }

    /// The calls in flight, oldest first.
    func infos(group: ObjectIdentifier? = nil) -> [ApiSession.CallInfo] {
        state.withLock { state in
            state.calls.filter { group == nil || $0.group == group }.map(\.info)
        }
    }

    /// How many calls are in flight, of `group` alone when one is given.
    func count(group: ObjectIdentifier? = nil) -> Int {
        state.withLock { state in
            group == nil ? state.calls.count : state.calls.count { $0.group == group }
        }
    }

    /// Cancels the calls in flight that `predicate` selects, newest first; returns how many.
    @discardableResult
    func cancel(group: ObjectIdentifier? = nil, where predicate: (ApiSession.CallInfo) -> Bool = { _ in true }) -> Int {
        let calls = state.withLock { state in
            state.calls.filter { group == nil || $0.group == group }
        }
        var cancelled = 0
        for entry in calls.reversed() where predicate(entry.info) {
            entry.call.cancel()
            cancelled += 1
        }
        return cancelled
    }

    /// Cancels every call in flight, newest first.
    func cancelAll() {
        cancel()
    }

    /// The number of calls in flight now, then after each change, until the consumer stops.
    func counts() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextID += 1
            state.watchers[state.nextID] = continuation
            continuation.yield(state.calls.count)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    deinit {
        for watcher in state.withLock({ Array($0.watchers.values) }) {
            watcher.finish()
        }
    }
}
