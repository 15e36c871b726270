import CoreAPI

/// Holds whoever waits on it until it is opened; then lets everyone through, now and later.
final class ReplyGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
    }

    private let state = LockedValue(State())

    /// How many waits started so far.
    var arrived: Int { state.withLock { $0.arrived } }

    /// Returns once the gate is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let through = state.withLock { state in
                state.arrived += 1
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if through { continuation.resume() }
        }
    }

    /// Opens the gate for good.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}

/// Counts requests in flight and the most at once.
final class InFlight: Sendable {
    private let state = LockedValue((current: 0, most: 0, total: 0))

    /// Runs `body` counted as in flight.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { state in
            state.current += 1
            state.total += 1
            state.most = max(state.most, state.current)
        }
        defer { state.withLock { $0.current -= 1 } }
        return try await body()
    }

    /// The most requests in flight at once so far.
    var most: Int { state.withLock { $0.most } }
    /// The requests so far.
    var total: Int { state.withLock { $0.total } }
}
