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
///     var query: GraphQLQuery { "query Hero($episode: String!) { hero(episode: $episode) { name } }" }
///     var variables: [String: String] { ["episode": episode] }
/// }
///
/// let hero = try await session.perform(GetHero(episode: "JEDI")).hero
/// ```
///
/// The body holds exactly the query, the ``variables`` (left out when there are none) and the
/// ``operationName`` (left out when `nil`); the method's own stored properties are not sent. A response
/// with an `errors` array or without `data` throws a ``GraphQLFailure`` that carries every message with
/// its path, and the partial data when the server resolved some.
public protocol GraphQLMethod: ApiMethod
where Response == GraphQLResponse<ResultData>, Output == ResultData {
    /// The type of the response's `data`.
    associatedtype ResultData: Decodable & Sendable
    /// The type of the variables; ``GraphQLNoVariables`` unless the method declares ``variables``.
    associatedtype Variables: Encodable & Sendable = GraphQLNoVariables

    /// The document to run.
    var query: GraphQLQuery { get }
    /// The operation's variables.
    var variables: Variables { get }
    /// The operation to run when the document has several; `nil` (the default) when it has one.
    var operationName: String? { get }
}

/// The variables of an operation that has none; never sent.
public struct GraphQLNoVariables: Encodable, Sendable, Hashable {
    /// No variables.
    public init() {}
}

extension GraphQLMethod where Variables == GraphQLNoVariables {
    /// None.
    public var variables: GraphQLNoVariables { GraphQLNoVariables() }
}

extension GraphQLMethod {
    /// `POST`.
    public var httpMethod: HTTPMethod { .post }
    /// A JSON body.
    public var parametersEncoding: any ParametersEncoding { JsonParametersEncoder() }
    /// `nil`: the document's only operation.
    public var operationName: String? { nil }

    /// Writes `query`, then `variables` and `operationName` when there are any.
    /// - Throws: `ApiError.invalidRequest(.unreadableFile(path:))` when the document cannot be read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: GraphQLBodyKey.self)
        try container.encode(try query.read(), forKey: .query)
        if !(variables is GraphQLNoVariables) {
            try container.encode(variables, forKey: .variables)
        }
        try container.encodeIfPresent(operationName, forKey: .operationName)
    }

    /// The data of a response without errors.
    /// - Throws: ``GraphQLFailure`` when the response has errors or no data.
    public func finalize(_ response: GraphQLResponse<ResultData>) async throws -> ResultData {
        guard response.errors.isEmpty, let data = response.data else {
            throw GraphQLFailure(errors: response.errors, partialData: response.data, statusCode: response.statusCode)
        }
        return data
    }
}

/// The keys of a GraphQL request body.
private enum GraphQLBodyKey: String, CodingKey {
    case query, variables, operationName
}
