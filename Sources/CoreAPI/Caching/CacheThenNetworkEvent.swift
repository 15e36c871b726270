/// What ``ApiSession/cachedThenFresh(_:cache:)`` delivers, in order: the stored value when there is
/// one, then the fresh one — or, when the network fails after a stored value was delivered, the failure.
public enum CacheThenNetworkEvent<Output: Sendable>: Sendable {
    /// The value made from the stored response, and how old that response is.
    case cached(Output, age: Duration)
    /// The value made from the server's answer (a `304` counts: the stored body, confirmed).
    case fresh(Output)
    /// The network call failed after a stored value was delivered; the stored value stands.
    case failed(ApiError)
}
