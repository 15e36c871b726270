/// Running many calls as one: in order or with a limit of calls in flight, with a policy for failures,
/// results in input order or as they complete, and methods of different types together.
extension ApiSession {
    /// Performs every method and returns their outputs in the order of `methods`.
    ///
    /// The first failure ends the batch (see ``Batch/ErrorPolicy/stopAtFirstError``): calls still in
    /// flight are cancelled, calls not started never start, and the failure is thrown.
    /// - Parameters:
    ///   - methods: The calls to make.
    ///   - mode: One after the other, or up to a number at once (four by default).
    ///   - progress: Called after each call ends, on the batch's task.
    /// - Throws: The first error a call threw; ``ApiError/cancelled`` when the calling task is cancelled.
    public func performAll<M: ApiMethod>(
        _ methods: [M],
        mode: Batch.Mode = .concurrent(limit: 4),
        progress: (@Sendable (Batch.Progress) -> Void)? = nil
    ) async throws -> [M.Output] {
        var outputs = [M.Output?](repeating: nil, count: methods.count)
        var failure: (any Error)?
        await runBatch(methods, mode: mode, policy: .stopAtFirstError, progress: progress) { index, result in
            switch result {
            case .success(let output): outputs[index] = output
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure {
            throw failure
        }
        guard outputs.allSatisfy({ $0 != nil }) else { throw ApiError.cancelled }
        return outputs.compactMap { $0 }
    }

    /// Performs every method and returns each call's result in the order of `methods`; failures are
    /// results too, and `onError` decides whether one stops the rest.
    /// - Parameters:
    ///   - methods: The calls to make.
    ///   - mode: One after the other, or up to a number at once (four by default).
    ///   - onError: Whether a failure cancels the calls not finished (they end with
    ///     ``ApiError/cancelled``, unless their response was already arriving); every call runs by default.
    ///   - progress: Called after each call ends, on the batch's task.
    public func performEach<M: ApiMethod>(
        _ methods: [M],
        mode: Batch.Mode = .concurrent(limit: 4),
        onError: Batch.ErrorPolicy = .continueAll,
        progress: (@Sendable (Batch.Progress) -> Void)? = nil
    ) async -> [Result<M.Output, any Error>] {
        var results = [Result<M.Output, any Error>](repeating: .failure(ApiError.cancelled), count: methods.count)
        await runBatch(methods, mode: mode, policy: onError, progress: progress) { index, result in
            results[index] = result
        }
        return results
    }

    /// Performs every method and yields each call's result as it ends, with its position in `methods`.
    ///
    /// Calls start when the sequence is made; they are cancelled when the stream is released before the
    /// end, or the task iterating it is cancelled. Every call yields exactly one result, cancelled ones included, and the sequence
    /// ends after the last.
    ///
    /// ```swift
    /// for await item in session.results(of: ids.map(GetUser.init), mode: .concurrent(limit: 3)) {
    ///     if case .success(let user) = item.result { show(user, at: item.index) }
    /// }
    /// ```
    public func results<M: ApiMethod>(
        of methods: [M],
        mode: Batch.Mode = .concurrent(limit: 4),
        onError: Batch.ErrorPolicy = .continueAll
    ) -> AsyncStream<Batch.Outcome<M.Output>> {
        let (stream, continuation) = AsyncStream<Batch.Outcome<M.Output>>.makeStream()
        let task = Task { [self] in
            await runBatch(methods, mode: mode, policy: onError, progress: nil) { index, result in
                continuation.yield(Batch.Outcome(index: index, result: result))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Performs methods of different types at once and returns their outputs as a tuple, in the order
    /// given: `let (user, orders) = try await session.performAll(GetUser(id: 7), ListOrders(userID: 7))`.
    ///
    /// The first failure cancels the other calls and is thrown.
    /// - Throws: The first error a call threw.
    public func performAll<each M: ApiMethod>(_ methods: repeat each M) async throws -> (repeat (each M).Output) {
        var calls: [@Sendable () async throws -> any Sendable] = []
        for method in repeat each methods {
            calls.append { [self] in try await perform(method) }
        }
        let values = try await withThrowingTaskGroup(of: (Int, any Sendable).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, try await call()) }
            }
            var values = [(any Sendable)?](repeating: nil, count: calls.count)
            for try await (index, value) in group {
                values[index] = value
            }
            return values
        }
        var next = 0
        func take<Value>(_ type: Value.Type) throws -> Value {
            defer { next += 1 }
            // Unreachable: the group threw unless every call returned its output.
            guard let value = values[next] as? Value else { throw ApiError.cancelled }
            return value
        }
        return try (repeat take((each M).Output.self))
    }

    /// Runs `methods` with at most `mode.limit` in flight, in order, and hands each result to `deliver`
    /// on the calling task as the call ends; once `policy` stops the batch, calls in flight are
    /// cancelled and the ones not started are delivered as cancelled.
    private func runBatch<M: ApiMethod>(
        _ methods: [M],
        mode: Batch.Mode,
        policy: Batch.ErrorPolicy,
        progress: (@Sendable (Batch.Progress) -> Void)?,
        deliver: (Int, Result<M.Output, any Error>) -> Void
    ) async {
        var state = Batch.Progress(total: methods.count, succeeded: 0, failed: 0)
        await withTaskGroup(of: (Int, Result<M.Output, any Error>).self) { group in
            var next = 0
            var stopped = false
            func startNext() {
                let index = next
                let method = methods[index]
                next += 1
                group.addTask { [self] in
                    do {
                        return (index, .success(try await perform(method)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while next < methods.count, next < mode.limit {
                startNext()
            }
            while let (index, result) = await group.next() {
                deliver(index, result)
                switch result {
                case .success: state.succeeded += 1
                case .failure(let error):
                    state.failed += 1
                    if !stopped, policy.stops(on: error) || Task.isCancelled {
                        stopped = true
                        group.cancelAll()
                    }
                }
                progress?(state)
                if !stopped, Task.isCancelled {
                    stopped = true
                    group.cancelAll()
                }
                if !stopped, next < methods.count {
                    startNext()
                }
            }
            // Never started: the batch stopped before their turn.
            while next < methods.count {
                deliver(next, .failure(ApiError.cancelled))
                next += 1
                state.failed += 1
                progress?(state)
            }
        }
    }
}
