/// Identical exchanges in flight that share one trip to the server (see ``CallOptions/sharesIdenticalCalls``
/// and ``WireIdentity``).
///
/// Each caller runs its own call — its own middleware chain, its own response processing — up to the
/// moment its request is handed to the transport; there the first caller of an identity starts the
/// exchange (with its redirects) in a task of its own, and later ones join it. Each caller waits on a
/// continuation of its own, so a caller that is cancelled (its task or its ``Call``) leaves at once with
/// ``ApiError/cancelled`` while the others go on waiting; the exchange is cancelled only when its last
/// caller leaves, and the identity is forgotten at that moment, so a caller that comes later starts afresh
/// instead of joining a cancelled exchange. Joining, leaving and finishing all happen under one lock:
/// no caller can join an exchange between the check that it exists and the moment it ends.
final class SharedCalls: Sendable {
    /// One exchange and the callers waiting for it.
    private final class SharedExchange: @unchecked Sendable {  // fields used under the table's lock only
        var waiters: [Int: CheckedContinuation<any Sendable, any Error>] = [:]
        var task: Task<Void, Never>?
    }

    /// One caller; cancelled before or after it joined.
    private final class Waiter: @unchecked Sendable {  // its fields are read and written under the table's lock only
        var exchange: SharedExchange?
        var isCancelled = false
    }

    private struct Table {
        var exchanges: [WireIdentity: SharedExchange] = [:]
        var nextWaiter = 0
    }

    private let table = LockedValue(Table())

    /// How many callers wait for a shared exchange.
    var waiting: Int {
        table.withLock { table in table.exchanges.values.reduce(0) { $0 + $1.waiters.count } }
    }

    /// The result of the exchange for `identity`: the one in flight, or one `start` begins now.
    /// - Parameters:
    ///   - identity: What the exchange sends.
    ///   - call: The caller's call, whose ``Call/cancel()`` makes the caller leave.
    ///   - start: Performs the exchange, in a task of its own that is cancelled when every caller left.
    /// - Throws: ``ApiError/cancelled`` when the caller leaves; otherwise what `start` threw.
    func perform<Output: Sendable>(
        _ identity: WireIdentity,
        for call: Call,
        start: @escaping @Sendable () async throws -> Output
    ) async throws -> Output {
        let waiter = Waiter()
        let id = table.withLock { table in
            table.nextWaiter += 1
            return table.nextWaiter
        }
        try call.begin { [self] in leave(waiter, id: id, identity: identity) }
        defer { call.end() }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let begin: SharedExchange? = table.withLock { table in
                    guard !waiter.isCancelled else {
                        continuation.resume(throwing: ApiError.cancelled)
                        return nil
                    }
                    if let running = table.exchanges[identity] {
                        running.waiters[id] = continuation
                        waiter.exchange = running
                        return nil
                    }
                    let exchange = SharedExchange()
                    exchange.waiters[id] = continuation
                    waiter.exchange = exchange
                    table.exchanges[identity] = exchange
                    return exchange
                }
                guard let begin else { return }
                let task = Task { [self] in
                    let result: Result<any Sendable, any Error>
                    do {
                        result = .success(try await start())
                    } catch {
                        result = .failure(error)
                    }
                    finish(begin, identity: identity, with: result)
                }
                let abandoned = table.withLock { _ in
                    begin.task = task
                    return begin.waiters.isEmpty  // every caller left before the task was stored
                }
                if abandoned {
                    task.cancel()
                }
            }
        } onCancel: {
            leave(waiter, id: id, identity: identity)
        }
        guard let output = value as? Output else {
            // One identity is one method type, and every exchange returns a raw response.
            preconditionFailure("a shared call returned \(type(of: value)), not \(Output.self)")
        }
        return output
    }

    /// Hands `result` to every caller still waiting, and forgets the exchange.
    private func finish(
        _ exchange: SharedExchange,
        identity: WireIdentity,
        with result: Result<any Sendable, any Error>
    ) {
        let waiters = table.withLock { table in
            if table.exchanges[identity] === exchange {
                table.exchanges[identity] = nil
            }
            let waiters = exchange.waiters
            exchange.waiters.removeAll()
            return waiters
        }
        for continuation in waiters.values {
            continuation.resume(with: result)
        }
    }

    /// Ends the wait of a cancelled caller; cancels the exchange when no caller is left.
    private func leave(_ waiter: Waiter, id: Int, identity: WireIdentity) {
        typealias Left = (continuation: CheckedContinuation<any Sendable, any Error>?, abandoned: Task<Void, Never>?)
        let (continuation, abandoned) = table.withLock { table -> Left in
            waiter.isCancelled = true
            guard let exchange = waiter.exchange, let continuation = exchange.waiters.removeValue(forKey: id) else {
                return (nil, nil)
            }
            guard exchange.waiters.isEmpty else { return (continuation, nil) }
            if table.exchanges[identity] === exchange {
                table.exchanges[identity] = nil
            }
            // Read under the lock: its creator may be storing it now; if it is not stored yet, the
            // creator finds no caller left and cancels it itself.
            return (continuation, exchange.task)
        }
        continuation?.resume(throwing: ApiError.cancelled)
        abandoned?.cancel()
    }
}
