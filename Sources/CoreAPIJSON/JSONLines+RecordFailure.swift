extension JSONLines {
    /// A record of a ``JSONLines`` body that does not decode. (`Failure` is `AsyncSequence`'s name for
    /// the error type a sequence throws.)
    public struct RecordFailure: Error, Sendable, CustomStringConvertible {
        /// The record's number, from 1; for JSON Lines, its line number.
        public let record: Int
        /// The start of the record's text, at most 200 bytes.
        public let text: String
        /// The decoding error, its coding path relative to the record.
        public let underlying: any Error

        /// The record number and the decoding error.
        public var description: String {
            "record \(record) does not decode: \(underlying)"
        }
    }
}
