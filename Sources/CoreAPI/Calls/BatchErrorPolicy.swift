/// What a batch does when one of its calls fails.
public enum BatchErrorPolicy: Sendable, Hashable {
    /// The first failure ends the batch: calls in flight are cancelled and calls not started never
    /// start; both end with ``ApiError/cancelled``.
    case stopAtFirstError
    /// Every call runs, whatever the others do.
    case continueAll
    /// A failure of one of these categories lets the batch go on; any other failure ends it as
    /// ``stopAtFirstError`` does (`cancelRest(except: [.status])`: a `404` for one item is that item's
    /// result, a lost connection stops the rest).
    case cancelRest(except: Set<FailureCategory>)

    /// Whether `error` ends the batch.
    func stops(on error: any Error) -> Bool {
        switch self {
        case .stopAtFirstError: true
        case .continueAll: false
        case .cancelRest(let except): !except.contains(FailureCategory(error))
        }
    }
}
