/// What a call needs to know about its method's type, found once per type: whether its response type
/// carries the timing, which requirements stored properties supply, its name, and a setting it declares
/// that no call reads.
///
/// Each of these costs a dynamic cast, a mirror or a demangled name, none of them cheap, so they are
/// found the first time a type is performed and kept in one table, which a call reads once.
struct MethodFacts: Sendable {
    /// Whether the method's response type is a ``ResponseTimingCarrier``: only then are the clocks read
    /// for the timing.
    let takesTiming: Bool
    /// The requirements the type supplies with stored properties (see ``StoredRequirements``).
    let storedRequirements: [String]
    /// The type's name, for logs and metrics: `GetUser`.
    let name: String
    /// A setting the type declares that no call reads (see ``UnusedSettings``): its calls fail with it.
    let unusedSetting: ApiError.InvalidRequestReason?

    /// The facts found so far, by type; emptied should it ever hold more than 1024.
    private static let known = LockedValue<[ObjectIdentifier: MethodFacts]>([:])

    /// The facts of `method`'s type.
    static func of<M: ApiMethod>(_ method: M) -> MethodFacts {
        let key = ObjectIdentifier(M.self)
        if let facts = known.withLock({ $0[key] }) {
            return facts
        }
        let storedNames = Mirror(reflecting: method).children.compactMap(\.label)
        let facts = MethodFacts(
            takesTiming: M.Response.self is any ResponseTimingCarrier.Type,
            storedRequirements: StoredRequirements.supplied(byStoredNames: storedNames),
            name: String(describing: M.self),
            unusedSetting: UnusedSettings.find(in: M.self, storedNames: Set(storedNames))
        )
        known.withLock { table in
            if table.count >= 1024 { table.removeAll() }
            table[key] = facts
        }
        return facts
    }
}
