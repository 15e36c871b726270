/// How far a batch has come, counted in calls.
public struct BatchProgress: Sendable, Hashable {
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
