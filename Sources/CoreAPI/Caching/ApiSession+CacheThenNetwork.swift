import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Showing stored data at once, then fresh data.
extension ApiSession {
    /// The stored value of `method`, when `cache` has one, then the value the server confirms or sends,
    /// as an `AsyncSequence`.
    ///
    /// ```swift
    /// for try await event in session.cachedThenFresh(ListOrders(), cache: cache) {
    ///     switch event {
    ///     case .cached(let orders, let age): show(orders, age: age)
    ///     case .fresh(let orders): show(orders, age: .zero)
    ///     case .failed(let error): showOffline(error)
    ///     }
    /// }
    /// ```
    ///
    /// The stored response goes through the method's processing like a network one (a stored status
    /// error is skipped). The network call then revalidates (``HTTPCacheMiddleware/Policy/revalidate``): a `304` is
    /// delivered as the stored value, confirmed. When the network call fails after a stored value was
    /// delivered, the failure is the last event and the sequence ends without throwing; with nothing
    /// stored, it throws. `cache` must be one of the middlewares of the session or of the method.
    ///
    /// The stored value is looked up by a call through the session's and the method's middlewares,
    /// which the cache answers from its store without sending anything: the store is asked with the
    /// request the fresh call sends, credentials a middleware adds included, so a value stored for one
    /// user is shown to that user only.
    public func cachedThenFresh<M: ApiMethod>(
        _ method: M,
        cache: HTTPCacheMiddleware
    ) -> AsyncThrowingStream<HTTPCacheMiddleware.CacheThenNetworkEvent<M.Output>, any Error> where M.Output: Sendable {
        AsyncThrowingStream { continuation in
            let task = Task { [self] in
                var deliveredCached = false
                if let (value, age) = await storedValue(of: method) {
                    continuation.yield(.cached(value, age: age))
                    deliveredCached = true
                }
                do {
                    let fresh = try await perform(method, options: CallOptions(cachePolicy: .revalidate))
                    continuation.yield(.fresh(fresh))
                    continuation.finish()
                } catch {
                    if deliveredCached {
                        continuation.yield(.failed(ApiError(error)))
                        continuation.finish()
                    } else {
                        continuation.finish(throwing: error)
                    }
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The value made from `cache`'s stored response for `method`, and its age; `nil` when none is
    /// stored or it does not make a value. The lookup is a call through the session's and the method's
    /// middlewares that the cache answers from its store and that never reaches the network (see
    /// ``StoredLookup``), so it asks for what the fresh call would send, credentials included.
    private func storedValue<M: ApiMethod>(of method: M) async -> (M.Output, Duration)? {
        let lookup = StoredLookup()
        var options = CallOptions()
        options.storedLookup = lookup
        guard let output = try? await perform(method, options: options), let age = lookup.age
        else { return nil }
        return (output, .milliseconds(Int64(age * 1000)))
    }
}
