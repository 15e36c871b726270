public import CoreAPI

/// A GraphQL operation: a method that posts `{query, variables, operationName}` as JSON and returns
/// the decoded `data`.
///
/// ```swift
/// struct Hero: Decodable, Sendable {
///     struct Character: Decodable, Sendable { let name: String }
///     let hero: Character
/// }
///
/// struct GetHero: GraphQLMethod {
///     typealias ResultData = Hero
///     let episode: String
///     var hostProviderKey: String { "api" }
///     var path: String { "/graphql" }
///     var query: GraphQL.Query { "query Hero($episode: String!) { hero(episode: $episode) { name } }" }
///     var variables: [String: String] { ["episode": episode] }
/// }
///
/// let hero = try await session.perform(GetHero(episode: "JEDI")).hero
/// ```
///
/// The body holds exactly the query, the ``variables`` (left out when there are none) and the
/// ``operationName`` (left out when `nil`); the method's own stored properties are not sent. A response
/// with an `errors` array or without `data` throws a ``GraphQL/Failure`` that carries every message with
/// its path, and the partial data when the server resolved some.
public protocol GraphQLMethod: ApiMethod
where Response == GraphQL.Response<ResultData>, Output == ResultData {
    /// The type of the response's `data`.
    associatedtype ResultData: Decodable & Sendable
    /// The type of the variables; ``GraphQL/NoVariables`` unless the method declares ``variables``.
    associatedtype Variables: Encodable & Sendable = GraphQL.NoVariables

    /// The document to run.
    var query: GraphQL.Query { get }
    /// The operation's variables.
    var variables: Variables { get }
    /// The operation to run when the document has several; `nil` (the default) when it has one.
    var operationName: String? { get }
}

extension GraphQL {
    /// The variables of an operation that has none; never sent.
    public struct NoVariables: Encodable, Sendable, Hashable {
        /// No variables.
        public init() {}
    }
}

extension GraphQLMethod where Variables == GraphQL.NoVariables {
    /// None.
    public var variables: GraphQL.NoVariables { GraphQL.NoVariables() }
}

extension GraphQLMethod {
    /// `POST`.
    public var httpMethod: HTTPMethod { .post }
    /// A JSON body.
    public var parametersEncoding: any ParametersEncoding { JSONParametersEncoder() }
    /// `nil`: the document's only operation.
    public var operationName: String? { nil }

    /// Writes `query`, then `variables` and `operationName` when there are any.
    /// - Throws: `ApiError.invalidRequest(.unreadableFile(path:))` when the document cannot be read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: GraphQLBodyKey.self)
        try container.encode(try query.read(), forKey: .query)
        if !(variables is GraphQL.NoVariables) {
            try container.encode(variables, forKey: .variables)
        }
        try container.encodeIfPresent(operationName, forKey: .operationName)
    }

    /// The data of a response without errors.
    /// - Throws: ``GraphQL/Failure`` when the response has errors or no data.
    public func finalize(_ response: GraphQL.Response<ResultData>) async throws -> ResultData {
        guard response.errors.isEmpty, let data = response.data else {
            throw GraphQL.Failure(errors: response.errors, partialData: response.data, statusCode: response.statusCode)
        }
        return data
    }
}

/// The keys of a GraphQL request body.
private enum GraphQLBodyKey: String, CodingKey {
    case query, variables, operationName
}
