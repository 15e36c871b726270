/// What a middleware knows about the call it is part of.
public struct MiddlewareContext: Sendable {
    /// The method being performed.
    public let method: any ApiMethod
    /// The call's settings in effect: the method's ``ApiMethod/options`` with the call's overrides.
    public let options: CallOptions
    /// 1 for the first time this request passes a middleware; one more for each time a middleware
    /// before it sends it again.
    public internal(set) var attempt: Int
    /// The session performing the method.
    public let session: ApiSession
    /// The stored-only lookup this call is, if it is one (``ApiSession/cachedThenFresh(_:cache:)``).
    var storedLookup: StoredLookup? = nil
    /// The call, whose exchanges ``withEachExchange(_:perform:)`` wraps; `nil` for a WebSocket's handshake.
    var call: Call? = nil

    /// The method's type name, for logs and metrics: `GetUser`.
    public var methodName: String { String(describing: type(of: method)) }
}
