/// The calls of a session in flight, each with a way to cancel it.
final class CallRegistry: Sendable {
    private struct State {
        var nextID = 0
        var cancels: [Int: @Sendable () -> Void] = [:]
        /// Calls opened before ``cancelAll()`` whose cancel was not attached yet.
        var cancelledBeforeAttach: Set<Int> = []
        var open: Set<Int> = []
    }

    private let state = LockedValue(State())

    func open() -> Int {
        state.withLock { state in
            state.nextID += 1
            state.open.insert(state.nextID)
            return state.nextID
        }
    }

    func attach(_ id: Int, cancel: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLock { state in
            guard state.open.contains(id) else { return false }
            if state.cancelledBeforeAttach.remove(id) != nil { return true }
            state.cancels[id] = cancel
            return false
        }
        if cancelNow { cancel() }
    }

    func close(_ id: Int) {
        state.withLock { state in
            state.open.remove(id)
            state.cancels[id] = nil
            state.cancelledBeforeAttach.remove(id)
        }
    }

    func cancelAll() {
        let cancels = state.withLock { state in
            let cancels = Array(state.cancels.values)
            state.cancelledBeforeAttach = state.open.subtracting(state.cancels.keys)
            return cancels
        }
        for cancel in cancels {
            cancel()
        }
    }
}
