/// How a batch runs its calls.
public enum BatchMode: Sendable, Hashable {
    /// One after the other, in order.
    case sequential
    /// Up to `limit` at once (at least one), started in order as earlier ones finish.
    case concurrent(limit: Int)

    /// How many calls run at once.
    var limit: Int {
        switch self {
        case .sequential: 1
        case .concurrent(let limit): max(limit, 1)
        }
    }
}
