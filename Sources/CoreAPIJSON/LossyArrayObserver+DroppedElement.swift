extension LossyArrayObserver {
    /// An element of a ``LossyArray`` that did not decode.
    public struct DroppedElement: Sendable, CustomStringConvertible {
        /// Its position in the array as sent.
        public let index: Int
        /// Why it did not decode, usually a `DecodingError` with its coding path.
        public let error: any Error

        /// Records the element at `index` that failed with `error`.
        public init(index: Int, error: any Error) {
            self.index = index
            self.error = error
        }

        /// The position and the reason.
        public var description: String { "element \(index): \(error)" }
    }
}
