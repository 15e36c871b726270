import Foundation

/// The stored-only first step of ``ApiSession/cachedThenFresh(_:cache:)``.
///
/// The call runs through the session's and the method's middlewares like any other, so the store is
/// asked with the request that would be sent, the credentials a middleware adds included (the cache keeps
/// users apart by them). An ``HTTPCacheMiddleware`` answers it from its store and records the age of
/// what it served; nothing is ever sent: a miss, or a chain without a cache, ends the call with ``Miss``.
///
/// The lookup travels in the call's settings (an internal field of ``CallOptions``), so it is known to
/// the call it was started for only (and through its ``MiddlewareContext``): a call a middleware makes on
/// its own during it, such as a token refresh, is an ordinary call.
final class StoredLookup: Sendable {
    /// Ends a lookup that found nothing to serve, or that reached the transport.
    struct Miss: Error {}

    private let servedAge = LockedValue<TimeInterval?>(nil)

    /// The age of the stored response served, in seconds; `nil` until one is.
    var age: TimeInterval? { servedAge.withLock { $0 } }

    /// Records that a stored response `age` seconds old answered the lookup.
    func served(age: TimeInterval) {
        servedAge.withLock { $0 = age }
    }
}
