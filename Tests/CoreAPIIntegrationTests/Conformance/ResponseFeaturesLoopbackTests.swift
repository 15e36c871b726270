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

/// A JSON body posted to `/echo/items`, with its metadata.
private struct PostWithMetadata: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "fixture" }
    var path: String { "/echo/items" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { JSONParametersEncoder() }
    let name = "phases"
}

/// `/json/user` as bytes: a response that carries no timing.
private struct PlainUser: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "fixture" }
    var path: String { "/json/user" }
}

/// Notes whether each response that passes it came with the exchange's phases.
private struct PhasesWitness: Middleware {
    let seen = LockedList<Bool>()

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let response = try await next(request)
        seen.append(response.phases != nil)
        return response
    }
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

        /// The phases a transport reports are in order — each starts when the one before has ended — and
        /// lie within the exchange; the server waits 300 ms before its head, so the response phase starts
        /// no sooner. The second call goes over the connection the first one left open.
        @Test(arguments: TestTransport.underTest)
        func phasesAreInOrderWithinTheExchange(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let first = try #require(try await session.perform(SlowWithMetadata()).timing)
            let second = try #require(try await session.perform(SlowWithMetadata()).timing)
            let posted = try #require(try await session.perform(PostWithMetadata()).timing)
            for timing in [first, second, posted] {
                let phases = try #require(timing.phases)
                Self.expectInOrder(phases, within: try #require(timing.exchange))
                let response = try #require(phases.response)
                if timing != posted {
                    #expect(response.lowerBound >= .milliseconds(300))
                }
                #expect(phases.connection == nil || phases.reusedConnection == false)
            }
            // FoundationNetworking tells nothing of connections.
            #if canImport(FoundationNetworking)
                let reports = transport != .urlSession
            #else
                let reports = true
            #endif
            #expect(second.phases?.reusedConnection == (reports ? true : nil))
            #expect(posted.phases?.request != nil)
        }

        /// A transport measures the phases only for a call whose response carries them: a call whose
        /// response has no ``ResponseTiming`` gets none, the same method with its metadata gets them, on
        /// the same session, in either order.
        @Test(arguments: TestTransport.underTest)
        func phasesAreMeasuredOnlyForAResponseThatCarriesThem(transport: TestTransport) async throws {
            let witness = PhasesWitness()
            let session = transport.makeSession(hostProvider: server.hosts, middlewares: [witness])
            _ = try await session.perform(PlainUser())
            let timed = try await session.perform(UserWithMetadata())
            _ = try await session.perform(PlainUser())
            #expect(witness.seen.values == [false, true, false])
            #expect(timed.timing?.phases?.response != nil)
        }

        /// Each known phase starts no sooner than the one before it ended (the TLS handshake lies within
        /// the connection), and the last ends within the exchange.
        static func expectInOrder(_ phases: ResponseTiming.Phases, within exchange: Duration) {
            var end = Duration.zero
            for (name, range) in phases.known where name != "secureConnection" {
                #expect(range.lowerBound >= end, "\(name) starts before the phase before it ended")
                end = range.upperBound
            }
            #expect(end <= exchange)
            if let handshake = phases.secureConnection, let connection = phases.connection {
                #expect(handshake.lowerBound >= connection.lowerBound && handshake.upperBound <= connection.upperBound)
            }
        }
    }
}
