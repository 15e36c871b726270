// GraphQLMethod.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI
import CoreAPIJSON

private func sample(session: ApiSession) async throws -> String {
    struct Hero: Decodable, Sendable {
        struct Character: Decodable, Sendable { let name: String }
        let hero: Character
    }

    struct GetHero: GraphQLMethod {
        typealias ResultData = Hero
        let episode: String
        var hostProviderKey: String { "api" }
        var path: String { "/graphql" }
        var query: GraphQL.Query { "query Hero($episode: String!) { hero(episode: $episode) { name } }" }
        var variables: [String: String] { ["episode": episode] }
    }

    let hero = try await session.perform(GetHero(episode: "JEDI")).hero
    return hero.name
}
