/// The outcome of one call of a batch, with its place in the batch.
public struct BatchResult<Output: Sendable>: Sendable {
    /// The position of the call's method in the collection given to the batch.
    public var index: Int
    /// What the call returned or threw.
    public var result: Result<Output, any Error>

    /// Creates a result.
    public init(index: Int, result: Result<Output, any Error>) {
        self.index = index
        self.result = result
    }
}
