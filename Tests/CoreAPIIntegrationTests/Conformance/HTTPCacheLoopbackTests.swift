import CoreAPI
import Foundation
import Testing

/// The HTTP cache over real HTTP, on every transport, with the requests the server counted: fresh,
/// stale and revalidated, stale and changed, `no-store`, `Vary`, invalidation and the policies.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct HTTPCacheLoopbackTests {
        let server: FixtureServer
        let store = MemoryResponseStore()

        init() throws {
            server = try FixtureServer.shared()
        }

        private func session(_ transport: TestTransport) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts, middlewares: [HTTPCacheMiddleware(store: store)])
        }

        @Test(arguments: TestTransport.underTest)
        func aFreshResponseIsServedFromTheStore(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("fresh")
            var items: [CachedItem] = []
            for _ in 0..<3 {
                items.append(try await session.perform(GetCached(name: name, maxAge: 60)))
            }
            #expect(Set(items.map(\.version)) == [1])
            let stats = try server.cacheStats(name: name)
            #expect(stats.gets == 1)
        }

        @Test(arguments: TestTransport.underTest)
        func aStaleResponseIsRevalidated(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("stale")
            for _ in 0..<3 {
                #expect(try await session.perform(GetCached(name: name, maxAge: 0)).version == 1)
            }
            let stats = try server.cacheStats(name: name)
            #expect(stats.gets == 3)
            #expect(stats.conditional == 2)
            #expect(stats.notModified == 2)
        }

        @Test(arguments: TestTransport.underTest)
        func aStaleChangedResponseIsReplaced(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("changed")
            #expect(try await session.perform(GetCached(name: name, maxAge: 0)).version == 1)
            try server.bumpCached(name: name)
            #expect(try await session.perform(GetCached(name: name, maxAge: 0)).version == 2)
            #expect(try await session.perform(GetCached(name: name, maxAge: 0)).version == 2)
            let stats = try server.cacheStats(name: name)
            #expect((stats.gets, stats.conditional, stats.notModified) == (3, 2, 1))
        }

        @Test(arguments: TestTransport.underTest)
        func lastModifiedAloneRevalidates(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("modified")
            for _ in 0..<2 {
                _ = try await session.perform(GetCached(name: name, maxAge: 0, etag: 0, lastModified: 1))
            }
            let stats = try server.cacheStats(name: name)
            #expect((stats.gets, stats.conditional, stats.notModified) == (2, 1, 1))
        }

        @Test(arguments: TestTransport.underTest)
        func noStoreIsNeverStored(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("no-store")
            for _ in 0..<2 {
                _ = try await session.perform(GetCached(name: name, maxAge: 60, noStore: 1))
            }
            #expect(try server.cacheStats(name: name).gets == 2)
            #expect(store.count == 0)
        }

        /// A stored response answers only requests with the `Accept-Language` it was fetched with.
        @Test(arguments: TestTransport.underTest)
        func varyKeepsLanguagesApart(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("vary")
            let german = GetCached(name: name, maxAge: 60, vary: "Accept-Language", language: "de")
            let english = GetCached(name: name, maxAge: 60, vary: "Accept-Language", language: "en")
            #expect(try await session.perform(german).language == "de")
            #expect(try await session.perform(english).language == "en")
            #expect(try await session.perform(english).language == "en")
            #expect(try server.cacheStats(name: name).gets == 2)
        }

        /// A successful `POST` to the same URL removes its stored response.
        @Test(arguments: TestTransport.underTest)
        func anUnsafeMethodInvalidates(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("unsafe")
            #expect(try await session.perform(GetCached(name: name, maxAge: 60)).version == 1)
            _ = try await session.perform(ChangeCached(name: name, maxAge: 60))
            #expect(try await session.perform(GetCached(name: name, maxAge: 60)).version == 2)
            let stats = try server.cacheStats(name: name)
            #expect((stats.gets, stats.posts) == (2, 1))
        }

        /// Stored only: a miss answers 504 and sends nothing; stored else load: a stale entry answers.
        @Test(arguments: TestTransport.underTest)
        func thePoliciesOfTheStore(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("policy")
            await #expect {
                _ = try await session.perform(GetCached(name: name, policy: .storedOnly))
            } throws: { error in
                guard case .unacceptableStatus(let failure) = error as? ApiError else { return false }
                return failure.statusCode == 504
            }
            #expect(try server.cacheStats(name: name).gets == 0)
            _ = try await session.perform(GetCached(name: name, maxAge: 0))
            #expect(try await session.perform(GetCached(name: name, maxAge: 0, policy: .storedElseLoad)).version == 1)
            #expect(try await session.perform(GetCached(name: name, maxAge: 0, policy: .storedOnly)).version == 1)
            _ = try await session.perform(GetCached(name: name, maxAge: 60, policy: .reloadIgnoringStore))
            let stats = try server.cacheStats(name: name)
            #expect((stats.gets, stats.conditional) == (2, 0))
        }
    }
}
