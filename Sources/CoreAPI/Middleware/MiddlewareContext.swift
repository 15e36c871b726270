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
    public var methodName: String { MethodNames.name(of: type(of: method)) }
}

/// The type names of method types, made once per type: `String(describing:)` of a type demangles its
/// name, thousands of instructions that every logged, measured or traced call would pay again.
enum MethodNames {
    /// Names so far, by type; emptied should it ever hold more than 1024.
    private static let known = LockedValue<[ObjectIdentifier: String]>([:])

    /// The name of `type`.
    static func name(of type: any ApiMethod.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = known.withLock({ $0[key] }) {
            return name
        }
        let name = String(describing: type)
        known.withLock { table in
            if table.count >= 1024 { table.removeAll() }
            table[key] = name
        }
        return name
    }
}
