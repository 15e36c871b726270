/// The values of a batch of calls: how it runs them (``Mode``), what an error does to the calls
/// still to run (``ErrorPolicy``), how far it got (``Progress``) and each call's outcome
/// (``Outcome``). ``ApiSession/performAll(_:mode:progress:)``,
/// ``ApiSession/performEach(_:mode:onError:progress:)`` and ``ApiSession/results(of:mode:onError:)`` run batches.
public enum Batch {}

extension Batch {
    /// How a batch runs its calls.
    public enum Mode: Sendable, Hashable {
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
}

extension Batch {
    /// What a batch does when one of its calls fails.
    public enum ErrorPolicy: Sendable, Hashable {
        /// The first failure ends the batch: calls in flight are cancelled and calls not started never
        /// start; both end with ``ApiError/cancelled``.
        case stopAtFirstError
        /// Every call runs, whatever the others do.
        case continueAll
        /// A failure of one of these categories lets the batch go on; any other failure ends it as
        /// ``stopAtFirstError`` does (`cancelRest(except: [.status])`: a `404` for one item is that item's
        /// result, a lost connection stops the rest).
        case cancelRest(except: Set<ApiError.Category>)

        /// Whether `error` ends the batch.
        func stops(on error: any Error) -> Bool {
            switch self {
            case .stopAtFirstError: true
            case .continueAll: false
            case .cancelRest(let except): !except.contains(ApiError.Category(error))
            }
        }
    }
}

extension Batch {
    /// How far a batch has come, counted in calls.
    public struct Progress: Sendable, Hashable {
        /// The calls of the batch.
        public var total: Int
        /// The calls that returned a value.
        public var succeeded: Int
        /// The calls that failed, cancelled ones included.
        public var failed: Int

        /// Creates a progress value.
        public init(total: Int, succeeded: Int, failed: Int) {
            self.total = total
            self.succeeded = succeeded
            self.failed = failed
        }

        /// The calls that ended, however they ended.
        public var completed: Int { succeeded + failed }

        /// The share of calls that ended, from 0 to 1; 1 for an empty batch.
        public var fractionCompleted: Double {
            total == 0 ? 1 : Double(completed) / Double(total)
        }
    }
}

extension Batch {
    /// The outcome of one call of a batch, with its place in the batch.
    public struct Outcome<Output: Sendable>: Sendable {
        /// The position of the call's method in the collection given to the batch.
        public var index: Int
        /// What the call returned or threw.
        public var result: Swift.Result<Output, any Error>

        /// Creates a result.
        public init(index: Int, result: Swift.Result<Output, any Error>) {
            self.index = index
            self.result = result
        }
    }
}
