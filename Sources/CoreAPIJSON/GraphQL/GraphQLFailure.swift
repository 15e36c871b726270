/// A GraphQL response that carried errors, with whatever data came with them.
///
/// Thrown by a ``GraphQLMethod`` call whose response has an `errors` array or no `data`. When the server
/// resolved part of the query, ``partialData`` holds it.
public struct GraphQLFailure<ResultData: Sendable>: Error, Sendable, CustomStringConvertible {
    /// The errors, in the server's order.
    public let errors: [GraphQLError]
    /// The data resolved despite the errors, or `nil` when there was none or it did not decode.
    public let partialData: ResultData?
    /// The HTTP status of the response.
    public let statusCode: Int

    /// Creates a failure.
    public init(errors: [GraphQLError], partialData: ResultData?, statusCode: Int) {
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
