public import Dispatch

/// Performing a method with a completion handler instead of `async`.
extension ApiSession {
    /// Performs `method` and calls `completion` with the result.
    ///
    /// `completion` runs once, on `queue` when one is given, and otherwise on a thread of the Swift
    /// concurrency pool. Cancelling the returned handle ends the call with ``ApiError/cancelled``. An
    /// invalid request completes with ``ApiError/invalidRequest(_:)`` without anything being sent.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - options: Settings for this call alone, on top of the method's ``ApiMethod/options``.
    ///   - queue: Where `completion` runs.
    ///   - progress: Called with upload and download progress, in order, on the thread that delivers
    ///     the session's network events; keep it short and never block in it.
    ///   - completion: Called once with the typed response or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func perform<M: ApiMethod>(
        _ method: M,
        options: CallOptions? = nil,
        queue: DispatchQueue? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<M.Output, any Error>) -> Void
    ) -> ApiSession.RequestHandle {
        let call = Call()
        let settings = settings(for: method, overriding: options)
        let id = calls.open(call, method: method, key: settings.callKey, group: nil)
        let chain = middlewareChain(for: settings)
        let task = Task {
            defer { calls.close(id) }
            await Self.complete(on: queue, with: completion) {
                try await execute(method, settings: settings, middlewares: chain, progress: progress, call: call)
            }
        }
        call.attachTask(task.cancel)
        return ApiSession.RequestHandle(cancel: call.cancel)
    }

    /// Runs `body` and calls `completion` with its result, on `queue` when one is given.
    private static func complete<Output: Sendable>(
        on queue: DispatchQueue?,
        with completion: @escaping @Sendable (Result<Output, any Error>) -> Void,
        _ body: () async throws -> Output
    ) async {
        let result: Result<Output, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        if let queue {
            queue.async { completion(result) }
        } else {
            completion(result)
        }
    }
}

extension ApiSession {
    /// A handle to one request started with ``ApiSession/perform(_:options:queue:progress:completion:)``.
    public final class RequestHandle: Sendable {
        private let cancelCall: @Sendable () -> Void

        init(cancel: @escaping @Sendable () -> Void) {
            self.cancelCall = cancel
        }

        /// Cancels the request; its completion receives ``ApiError/cancelled`` unless it already finished.
        public func cancel() {
            cancelCall()
        }
    }
}
