/// What a middleware knows about the call it is part of.
public struct MiddlewareContext: Sendable {
    /// What every middleware of the call shares, kept once: a context passed down the chain copies one
    /// reference rather than the method and all the call's settings. Reachable from inlinable code, so
    /// reading one of the settings does not copy them all out of another module.
    @usableFromInline
    final class Shared: Sendable {
        let method: any ApiMethod
        let methodName: String
        @usableFromInline let options: CallOptions
        let session: ApiSession
        let storedLookup: StoredLookup?
        let call: Call?

        init(
            method: any ApiMethod,
            methodName: String,
            options: CallOptions,
            session: ApiSession,
            storedLookup: StoredLookup?,
            call: Call?
        ) {
            self.method = method
            self.methodName = methodName
            self.options = options
            self.session = session
            self.storedLookup = storedLookup
            self.call = call
        }
    }

    @usableFromInline let shared: Shared

    /// The method being performed.
    public var method: any ApiMethod { shared.method }
    /// The call's settings in effect: the session's ``ApiSession/defaults``, the method's
    /// ``ApiMethod/options`` and the call's overrides. A timeout, deadline, size limit or status message
    /// that only the session's defaults set reads as unset here (`nil`); the call still keeps it.
    @inlinable public var options: CallOptions { shared.options }
    /// 1 for the first time this request passes a middleware; one more for each time a middleware
    /// before it sends it again.
    public internal(set) var attempt: Int
    /// The session performing the method.
    public var session: ApiSession { shared.session }
    /// The stored-only lookup this call is, if it is one (``ApiSession/cachedThenFresh(_:cache:)``).
    var storedLookup: StoredLookup? { shared.storedLookup }
    /// The call, whose exchanges ``withEachExchange(_:perform:)`` wraps; `nil` for a WebSocket's handshake.
    var call: Call? { shared.call }

    /// The method's type name, for logs and metrics: `GetUser`.
    public var methodName: String { shared.methodName }

    /// The context of `method`'s call with `options` in `session`, at `attempt`; `methodName` is its
    /// type's name when the caller has it (``MethodFacts``).
    init(
        method: any ApiMethod,
        methodName: String? = nil,
        options: CallOptions,
        attempt: Int,
        session: ApiSession,
        storedLookup: StoredLookup? = nil,
        call: Call? = nil
    ) {
        shared = Shared(
            method: method,
            methodName: methodName ?? MethodFacts.of(method).name,
            options: options,
            session: session,
            storedLookup: storedLookup,
            call: call
        )
        self.attempt = attempt
    }
}
