extension HTTPCacheMiddleware {
    /// Where responses are kept between calls: in memory (``HTTPCacheMiddleware/MemoryStore``), in files
    /// (``HTTPCacheMiddleware/FileStore``), or anywhere a conforming type puts them.
    ///
    /// Keys are made by the caller and never hold a secret: the HTTP cache makes them from the method, the
    /// URL without secret query parameters and, for a request with credentials, a keyed digest of them or
    /// a digest of the user's identity (see ``HTTPCacheMiddleware``). A store may keep keys as they are, so
    /// a store on disk names its files by a hash of the key instead.
    ///
    /// A key holds several variants — responses to requests that differ in the fields the response's
    /// `Vary` names — told apart by ``HTTPCacheMiddleware/StoredResponse/variantKey``: storing a response replaces the variant
    /// with the same ``HTTPCacheMiddleware/StoredResponse/variantKey``, and a key keeps at most
    /// ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey`` (8), the one used least recently going first. Every
    /// requirement is safe to call from several tasks at once.
    public protocol Store: Sendable {
        /// The variant stored for `key` that `matches` accepts — of several, the one stored (or refreshed)
        /// last — which becomes the one used most recently; `nil` when none is.
        func response(
            for key: String,
            matching matches: @Sendable (HTTPCacheMiddleware.StoredResponse) -> Bool
        ) async -> HTTPCacheMiddleware.StoredResponse?
        /// Stores `response` for `key`, replacing the variant with the same ``HTTPCacheMiddleware/StoredResponse/variantKey``,
        /// then drops the variants of `key` used least recently past ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey``.
        func store(_ response: HTTPCacheMiddleware.StoredResponse, for key: String) async
        /// Removes every variant stored for `key`.
        func removeResponse(for key: String) async
        /// Removes every response of `classification`, such as one user's after a logout.
        func removeResponses(classifiedAs classification: String) async
        /// Removes every response.
        func removeAll() async
    }
}

extension HTTPCacheMiddleware.Store {
    /// The variant stored for `key` last, whatever its `Vary` values; `nil` when there is none.
    public func response(for key: String) async -> HTTPCacheMiddleware.StoredResponse? {
        await response(for: key, matching: { _ in true })
    }
}
