/// Runs an operation against a time limit, for the waits of a WebSocket (a pong, a handshake) that no
/// engine may be trusted to end.
enum WebSocketTimeout {
    /// The result of `operation`, or `error` thrown once `limit` has passed; the operation's task is
    /// then cancelled and its result dropped. The caller's cancellation ends the wait at once with
    /// ``ApiError/cancelled``.
    static func run<Value: Sendable>(
        limit: Duration,
        error: any Error,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = Promise<Value>()
        let work = Task {
            do {
                outcome.resolve(.success(try await operation()))
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            outcome.resolve(.failure(error))
        }
        defer {
            timer.cancel()
            work.cancel()
        }
        return try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            outcome.resolve(.failure(ApiError.cancelled))
        }
    }
}
