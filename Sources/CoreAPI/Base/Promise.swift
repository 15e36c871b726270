/// A value decided once, awaited by one caller: the first ``resolve(_:)`` wins, later ones are ignored.
package final class Promise<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiter: CheckedContinuation<Value, any Error>?
    }

    private let state = LockedValue(State())

    /// A promise not decided yet.
    package init() {}

    /// Whether a result was decided.
    package var isResolved: Bool {
        state.withLock { $0.result != nil }
    }

    /// Decides the result unless it is decided already; returns whether this call decided it.
    @discardableResult
    package func resolve(_ result: Result<Value, any Error>) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>?? in
            guard state.result == nil else { return .none }
            state.result = result
            return .some(state.waiter.take())
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(with: result)
        return true
    }

    /// The result, once decided.
    package var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let decided = state.withLock { state -> Result<Value, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let decided {
                    continuation.resume(with: decided)
                }
            }
        }
    }
}
