extension HTTPCacheMiddleware {
    /// How an ``HTTPCacheMiddleware`` answers a method (``CallOptions/cachePolicy``).
    public enum Policy: Sendable, Hashable {
        /// HTTP's rules (RFC 9111): a fresh stored response answers at once; a stale one is revalidated
        /// with `If-None-Match` or `If-Modified-Since` and a `304` serves it; the rest goes to the network.
        case useHTTPSemantics
        /// Always asks the server, with the stored response's validators when there is one, so a `304`
        /// serves the stored body; what comes back is stored by HTTP's rules.
        case revalidate
        /// Always loads from the network, ignoring the store; what comes back is stored by HTTP's rules.
        case reloadIgnoringStore
        /// Returns the stored response whatever its age, else loads from the network.
        case storedElseLoad
        /// Returns the stored response whatever its age, else answers `504 Gateway Timeout` without
        /// sending anything (RFC 9111's `only-if-cached`).
        case storedOnly
    }
}
