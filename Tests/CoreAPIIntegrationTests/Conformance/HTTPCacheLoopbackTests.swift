import CoreAPI
import Foundation
import Testing

/// The HTTP cache over real HTTP, on every transport, with the requests the server counted: fresh,
/// stale and revalidated, stale and changed, `no-store`, `Vary`, invalidation, the policies, and
/// credentials: no token in the store's files, users kept apart, the shared mode.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct HTTPCacheLoopbackTests {
        let server: FixtureServer
        let store = HTTPCacheMiddleware.MemoryStore()

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

        /// A `private` response that varies on `Authorization`, stored in files, is served to the same
        /// user again, and the token's bytes are nowhere in the store's folder.
        @Test(arguments: TestTransport.underTest)
        func theTokenIsNowhereInTheStoresFiles(transport: TestTransport) async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: directory))
            let session = transport.makeSession(hostProvider: server.hosts, middlewares: [cache])
            let name = uniqueName("token")
            let token = "SECRET-TOKEN-\(UUID().uuidString.prefix(8))-ada"
            let method = GetCached(name: name, maxAge: 60, scope: "private", vary: "Authorization", token: token)
            #expect(try await session.perform(method).user == "ada")
            #expect(try await session.perform(method).user == "ada")
            #expect(try server.cacheStats(name: name).gets == 1)
            let paths = FileManager.default.subpaths(atPath: directory.path) ?? []
            var files = 0
            for path in paths {
                let url = directory.appendingPathComponent(path)
                guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
                files += 1
                #expect(try Data(contentsOf: url).range(of: Data(token.utf8)) == nil, "the token is in \(path)")
                #expect(!path.contains(token))
            }
            #expect(files == 1)
        }

        /// One user's response never answers another user's request; each user's is then served
        /// from the store.
        @Test(arguments: TestTransport.underTest)
        func oneUsersResponseNeverAnswersAnother(transport: TestTransport) async throws {
            let session = session(transport)
            let name = uniqueName("users")
            for token in ["T-ada", "T-bob", "T-ada", "T-bob"] {
                let user = String(token.dropFirst(2))
                #expect(try await session.perform(GetCached(name: name, maxAge: 60, token: token)).user == user)
            }
            #expect(try server.cacheStats(name: name).gets == 2)
        }

        /// In the shared mode, a `public` response to one user's request answers another's, and a
        /// `private` one is not stored.
        @Test(arguments: TestTransport.underTest)
        func theSharedModeServesOnlyPublicResponsesToOthers(transport: TestTransport) async throws {
            let cache = HTTPCacheMiddleware(store: store, mode: .shared)
            let session = transport.makeSession(hostProvider: server.hosts, middlewares: [cache])
            let shared = uniqueName("shared-public")
            for token in ["T-ada", "T-bob"] {
                #expect(
                    try await session.perform(GetCached(name: shared, maxAge: 60, scope: "public", token: token)).user
                        == "ada"
                )
            }
            #expect(try server.cacheStats(name: shared).gets == 1)
            let own = uniqueName("shared-private")
            for token in ["T-ada", "T-bob"] {
                let user = String(token.dropFirst(2))
                #expect(
                    try await session.perform(GetCached(name: own, maxAge: 60, scope: "private", token: token)).user
                        == user
                )
            }
            #expect(try server.cacheStats(name: own).gets == 2)
            #expect(store.count == 1)
        }
    }
}
