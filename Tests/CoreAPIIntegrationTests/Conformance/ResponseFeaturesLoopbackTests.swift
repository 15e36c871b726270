import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The hero of an episode, as the fixture's `/graphql` route resolves it.
private struct HeroData: Decodable, Sendable, Equatable {
    struct Character: Decodable, Sendable, Equatable {
        let name: String
        let friends: [Friend?]?
    }

    struct Friend: Decodable, Sendable, Equatable {
        let name: String
    }

    let hero: Character?
}

private struct GetHero: GraphQLMethod {
    typealias ResultData = HeroData
    let episode: String
    var hostProviderKey: String { "fixture" }
    var path: String { "/graphql" }
    var query: GraphQL.Query { "query Hero($episode: String!) { hero(episode: $episode) { name } }" }
    var variables: [String: String] { ["episode": episode] }
    var operationName: String? { "Hero" }
}

private struct GetFriends: GraphQLMethod {
    typealias ResultData = HeroData
    var hostProviderKey: String { "fixture" }
    var path: String { "/graphql" }
    var query: GraphQL.Query { "{ hero { name friends { name } } }" }
}

private struct BrokenQuery: GraphQLMethod {
    typealias ResultData = HeroData
    var hostProviderKey: String { "fixture" }
    var path: String { "/graphql" }
    var query: GraphQL.Query { "{ syntax error" }
}

private struct UserWithMetadata: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "fixture" }
    var path: String { "/json/user" }
}

/// `/delay?ms=300` with its metadata.
private struct SlowWithMetadata: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "fixture" }
    var path: String { "/delay" }
    let ms = 300
}

/// Response features over real HTTP, on every transport: GraphQL against the fixture's small endpoint,
/// and the metadata of a response.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct ResponseFeaturesLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        @Test(arguments: TestTransport.underTest)
        func aGraphQLQueryReturnsItsData(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let data = try await session.perform(GetHero(episode: "EMPIRE"))
            #expect(data.hero?.name == "Han Solo")
        }

        @Test(arguments: TestTransport.underTest)
        func graphQLErrorsAreTypedWithTheirPaths(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let failure = await #expect(throws: GraphQL.Failure<HeroData>.self) {
                try await session.perform(GetHero(episode: "PHANTOM"))
            }
            #expect(failure?.errors.map(\.message) == ["no hero for episode PHANTOM"])
            #expect(failure?.errors.first?.path == [.key("hero")])
            #expect(failure?.errors.first?.locations == [GraphQL.Error.Location(line: 1, column: 41)])
            #expect(failure?.partialData == HeroData(hero: nil))
            #expect(failure?.statusCode == 200)
        }

        @Test(arguments: TestTransport.underTest)
        func partialDataComesWithTheErrors(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let failure = await #expect(throws: GraphQL.Failure<HeroData>.self) {
                try await session.perform(GetFriends())
            }
            #expect(failure?.partialData?.hero?.friends == [HeroData.Friend(name: "Luke Skywalker"), nil])
            #expect(failure?.errors.first?.description == "hero.friends[1]: friend record unavailable")
            #expect(failure?.errors.first?.extensions?["code"] == "UNAVAILABLE")
        }

        @Test(arguments: TestTransport.underTest)
        func anErrorStatusWithGraphQLErrorsIsAGraphQLFailure(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let failure = await #expect(throws: GraphQL.Failure<HeroData>.self) {
                try await session.perform(BrokenQuery())
            }
            #expect(failure?.statusCode == 400)
            #expect(failure?.errors.map(\.message) == ["Syntax Error: unexpected name"])
            #expect(failure?.partialData == nil)
        }

        @Test(arguments: TestTransport.underTest)
        func metadataComesWithTheValue(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let user = try await session.perform(UserWithMetadata())
            #expect(user.status == .ok)
            #expect(user.headers["content-type"] == "application/json")
            #expect(user.headers["Content-Length"] == String(user.value.count))
            #expect(user.url?.path == "/json/user")
            #expect(String(decoding: user.value, as: UTF8.self).contains(#""name": "Ada""#))
        }

        /// The server waits 300 ms before it answers: the exchange takes at least that, the call at least
        /// as long as its exchange, and the call started when it was made.
        @Test(arguments: TestTransport.underTest)
        func timingCoversTheExchange(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let before = Date()
            let slow = try await session.perform(SlowWithMetadata())
            let after = Date()
            let timing = try #require(slow.timing)
            let exchange = try #require(timing.exchange)
            #expect(exchange >= .milliseconds(300))
            #expect(timing.total >= exchange)
            #expect(timing.total <= .seconds(after.timeIntervalSince(before)))
            #expect(timing.start >= before.addingTimeInterval(-0.001) && timing.start <= after)
        }
    }
}
