import CoreAPI

extension TransportConformance {
    /// What a ``Case`` throws when the transport broke the contract: the case, what it expected and what
    /// it saw.
    ///
    /// Header fields appear by name only, and errors by their description, which CoreAPI keeps free of
    /// secrets: a failure never carries the value of a secret field.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The ``Case/name`` of the case that failed.
        public let caseName: String
        /// What the contract asks for.
        public let expected: String
        /// What the call did instead.
        public let seen: String

        /// Creates a failure.
        /// - Parameters:
        ///   - caseName: The case that failed.
        ///   - expected: What the contract asks for.
        ///   - seen: What the call did instead.
        public init(caseName: String, expected: String, seen: String) {
            self.caseName = caseName
            self.expected = expected
            self.seen = seen
        }

        /// The case, what was expected and what was seen, on one line.
        public var description: String {
            "Transport conformance case \"\(caseName)\": expected \(expected); saw \(seen)"
        }

        /// How `error` appears in a failure: an ``/CoreAPI/ApiError`` by its description, another error by
        /// its type alone.
        static func describe(_ error: any Error) -> String {
            if let error = error as? ApiError {
                return "the error \"\(error)\""
            }
            return "an error of type \(type(of: error))"
        }
    }
}
