/// The calls of a session in flight.
final class CallRegistry: Sendable {
    private struct State {
        var nextID = 0
        var calls: [Int: Call] = [:]
    }

    private let state = LockedValue(State())

    /// Registers `call` until ``close(_:)`` with the returned identifier.
    func open(_ call: Call) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.calls[state.nextID] = call
            return state.nextID
        }
    }

    /// Forgets the call registered under `id`.
    func close(_ id: Int) {
        _ = state.withLock { $0.calls.removeValue(forKey: id) }
    }

    /// Cancels every registered call, newest first; the cancels run after the lock is released.
    ///
    /// Newest first, because the newest exchanges are the ones still waiting for a connection:
    /// cancelled first they never get one, whereas a connection freed by cancelling an older call would
    /// be handed to a waiting exchange, opened and then cancelled too.
    func cancelAll() {
        let calls = state.withLock { state in
            state.calls.sorted { $0.key > $1.key }.map(\.value)
        }
        for call in calls {
            call.cancel()
        }
    }
}
