extension CallOptions {
    /// Status codes a method accepts as success.
    ///
    /// The default is `200..<300`. During ``ApiResponse/process(response:data:error:)`` the codes of the
    /// method being performed are ``current``.
    public struct AcceptableStatusCodes: Sendable, Hashable, ExpressibleByArrayLiteral {
        /// The accepted ranges.
        public var ranges: [Range<Int>]

        /// Accepts codes in any of `ranges`.
        public init(_ ranges: [Range<Int>]) {
            self.ranges = ranges
        }

        /// Accepts the listed codes.
        public init(arrayLiteral codes: Int...) {
            self.ranges = codes.map { $0..<($0 + 1) }
        }

        /// `200..<300`.
        public static let successful = CallOptions.AcceptableStatusCodes([200..<300])

        /// Whether `code` is accepted.
        public func contains(_ code: Int) -> Bool {
            ranges.contains { $0.contains(code) }
        }

        /// The codes of the method whose response is being processed; ``successful`` elsewhere.
        @TaskLocal public static var current: CallOptions.AcceptableStatusCodes = .successful
    }
}
