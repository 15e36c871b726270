/// The values of a GraphQL exchange: the ``Query`` document, the ``Response`` envelope, each ``Error``
/// the server reports, the ``Failure`` thrown when it reports any, and ``NoVariables`` for an operation
/// without variables. A method describes its operation by adopting ``GraphQLMethod``.
public enum GraphQL {}

extension GraphQL {
    /// A GraphQL response that carried errors, with whatever data came with them.
    ///
    /// Thrown by a ``GraphQLMethod`` call whose response has an `errors` array or no `data`. When the server
    /// resolved part of the query, ``partialData`` holds it.
    public struct Failure<ResultData: Sendable>: Swift.Error, Sendable, CustomStringConvertible {
        /// The errors, in the server's order.
        public let errors: [GraphQL.Error]
        /// The data resolved despite the errors, or `nil` when there was none or it did not decode.
        public let partialData: ResultData?
        /// The HTTP status of the response.
        public let statusCode: Int

        /// Creates a failure.
        public init(errors: [GraphQL.Error], partialData: ResultData?, statusCode: Int) {
            self.errors = errors
            self.partialData = partialData
            self.statusCode = statusCode
        }

        /// The errors, one after another, with their paths.
        public var description: String {
            let listed = errors.isEmpty ? "no data and no errors" : errors.map(\.description).joined(separator: "; ")
            return "GraphQL errors (HTTP \(statusCode)): \(listed)"
        }
    }
}
