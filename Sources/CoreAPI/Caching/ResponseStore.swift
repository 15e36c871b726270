/// Where responses are kept between calls: in memory (``MemoryResponseStore``), in files
/// (``FileResponseStore``), or anywhere a conforming type puts them.
///
/// Keys are made by the caller — the HTTP cache makes them from the method and the URL without secret
/// parameters — and never hold a secret; a store may keep them as they are, so a store on disk names
/// its files by a hash of the key instead. Every requirement is safe to call from several tasks at
/// once.
public protocol ResponseStore: Sendable {
    /// The response stored for `key`, or `nil`.
    func response(for key: String) async -> StoredResponse?
    /// Stores `response` for `key`, replacing what was there.
    func store(_ response: StoredResponse, for key: String) async
    /// Removes the response stored for `key`, if any.
    func removeResponse(for key: String) async
    /// Removes every response of `classification`, such as one user's after a logout.
    func removeResponses(classifiedAs classification: String) async
    /// Removes every response.
    func removeAll() async
}
