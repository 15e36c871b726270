/// What the tree encoder needs to know about a type that is none of the common leaf types. Finding it
/// takes dynamic casts, each of them costly, so it is found once per type.
struct TypeFacts {
    /// Whether the type is an integer type.
    var isInteger: Bool
    /// The type as a ``EncodingStrategy/CustomDate`` type, when it is one.
    var customDates: (any EncodingStrategy.CustomDate.Type)?

    /// Facts found so far, by type; emptied should it ever hold more than 1024.
    private static let known = LockedValue<[ObjectIdentifier: TypeFacts]>([:])

    /// The facts of `type`.
    static func of<Value>(_ type: Value.Type) -> TypeFacts {
        let key = ObjectIdentifier(type)
        if let facts = known.withLock({ $0[key] }) {
            return facts
        }
        let facts = TypeFacts(
            isInteger: type is any BinaryInteger.Type,
            customDates: type as? any EncodingStrategy.CustomDate.Type
        )
        known.withLock { table in
            if table.count >= 1024 { table.removeAll() }
            table[key] = facts
        }
        return facts
    }
}
