import CoreAPI
import CoreAPITesting
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /doc` with the header fields a test gives.
private struct GetDoc: ApiMethod {
    typealias Response = Data
    @Excluded var fields: [String: String] = [:]
    var hostProviderKey: String { "api" }
    var path: String { "/doc" }
    var headers: Headers {
        Headers(fields.sorted { $0.key < $1.key }.map { Headers.Field(name: $0.key, value: $0.value) })
    }
}

/// `POST /doc`.
private struct ChangeDoc: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var path: String { "/doc" }
}

/// `GET /other`.
private struct GetOther: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/other" }
}

/// The private and shared modes, users told apart by identity or credentials, `Vary` variants and
/// hostile `Vary` values, with a stub transport.
@Suite(.timeLimit(.minutes(1)))
struct HTTPCacheModesTests {
    let transport = StubTransport()
    let store = HTTPCacheMiddleware.MemoryStore()

    /// Answers `/doc` with `headers` and a body counting the requests, so a served copy shows.
    func serve(_ headers: Headers, path: String = "/doc") {
        let count = Counter()
        transport.on(.get, path) { _ in
            .data(Data("v\(count.next())".utf8), headers: headers)
        }
    }

    func session(_ cache: HTTPCacheMiddleware) -> ApiSession {
        transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
    }

    func text(_ session: ApiSession, _ fields: [String: String] = [:]) async throws -> String {
        String(decoding: try await session.perform(GetDoc(fields: fields)), as: UTF8.self)
    }

    /// An app-supplied identity keeps a user's entries across a token refresh, and apart from another
    /// user's.
    @Test func anIdentityKeepsAUsersEntriesAcrossATokenRefresh() async throws {
        serve(["Cache-Control": "private, max-age=60"])
        let cache = HTTPCacheMiddleware(store: store) { _ in
            nil
        } identify: { request in
            request.headers["X-User"]
        }
        let session = session(cache)
        #expect(try await text(session, ["Authorization": "Bearer one", "X-User": "ada"]) == "v1")
        #expect(try await text(session, ["Authorization": "Bearer two", "X-User": "ada"]) == "v1")
        #expect(try await text(session, ["Authorization": "Bearer one", "X-User": "bob"]) == "v2")
        #expect(transport.requests.count == 2)
    }

    /// Without a digest key, a request with credentials neither uses nor fills the store, and a
    /// response varying on a secret field is not stored; one without credentials still is.
    @Test func withoutADigestKeyCredentialsAreNotStored() async throws {
        serve(["Cache-Control": "max-age=60"])
        let session = session(HTTPCacheMiddleware(store: store, digestKey: nil))
        #expect(try await text(session, ["Cookie": "id=1"]) == "v1")
        #expect(try await text(session, ["Cookie": "id=1"]) == "v2")
        #expect(store.count == 0)
        #expect(try await text(session) == "v3")
        #expect(try await text(session) == "v3")
        serve(["Cache-Control": "max-age=60", "Vary": "X-Api-Key"])
        let configured = transport.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            middlewares: [HTTPCacheMiddleware(store: HTTPCacheMiddleware.MemoryStore(), digestKey: nil)],
            policy: SessionPolicy(secretHeaderNames: ["X-Api-Key"])
        )
        #expect(try await text(configured) == "v1")
        #expect(try await text(configured) == "v2")
    }

    /// The same app key makes the same digests in another store instance, as across a restart.
    @Test func anAppKeyFindsEntriesAgainInAnotherInstance() async throws {
        serve(["Cache-Control": "max-age=60"])
        let key = try #require(HTTPCacheMiddleware.DigestKey([UInt8](repeating: 7, count: 32)))
        #expect(HTTPCacheMiddleware.DigestKey([UInt8](repeating: 7, count: 31)) == nil)
        #expect("\(key)" == "HTTPCacheMiddleware.DigestKey(<redacted>)")
        let first = session(HTTPCacheMiddleware(store: store, digestKey: key))
        #expect(try await text(first, ["Authorization": "Bearer ada"]) == "v1")
        let second = session(HTTPCacheMiddleware(store: store, digestKey: key))
        #expect(try await text(second, ["Authorization": "Bearer ada"]) == "v1")
        let otherKey = session(
            HTTPCacheMiddleware(store: store, digestKey: HTTPCacheMiddleware.DigestKey(Array(repeating: 8, count: 32)))
        )
        #expect(try await text(otherKey, ["Authorization": "Bearer ada"]) == "v2")
    }

    /// In the shared mode, a response to a request with credentials is stored — for everyone — only
    /// with `public`, `s-maxage` or `must-revalidate`; `private` and `Set-Cookie` responses are not
    /// stored at all.
    @Test(arguments: [
        ("max-age=60", [String: String](), true, false),
        ("public, max-age=60", [:], true, true),
        ("s-maxage=60", [:], true, true),
        ("max-age=60, must-revalidate", [:], true, true),
        ("private, max-age=60", [:], false, false),
        ("max-age=60", ["Set-Cookie": "id=1"], false, false),
        ("max-age=60", [:], false, true),
    ])
    func theSharedModeStoresByRFC9111(
        cacheControl: String,
        extra: [String: String],
        withCredentials: Bool,
        stored: Bool
    ) async throws {
        var headers: Headers = ["Cache-Control": cacheControl]
        for (name, value) in extra { headers[name] = value }
        serve(headers)
        let session = session(HTTPCacheMiddleware(store: store, mode: .shared))
        let ada: [String: String] = withCredentials ? ["Authorization": "Bearer ada"] : [:]
        let bob: [String: String] = withCredentials ? ["Authorization": "Bearer bob"] : [:]
        #expect(try await text(session, ada) == "v1")
        #expect(try await text(session, bob) == (stored ? "v1" : "v2"))
    }

    /// `s-maxage` gives the freshness in the shared mode, and is ignored in the private one.
    @Test(arguments: [(HTTPCacheMiddleware.Mode.shared, "v1"), (.private, "v2")])
    func sMaxAgeCountsOnlyWhenShared(mode: HTTPCacheMiddleware.Mode, second: String) async throws {
        serve(["Cache-Control": "max-age=0, s-maxage=60"])
        let session = session(HTTPCacheMiddleware(store: store, mode: mode))
        #expect(try await text(session) == "v1")
        #expect(try await text(session) == second)
    }

    /// After an unsafe method that succeeds, the target and the same-origin `Location` and
    /// `Content-Location` are invalidated; another origin's are not.
    @Test(arguments: [
        ("/other", true), ("https://api.test/other", true), ("https://elsewhere.test/other", false),
        ("http://api.test/other", false),
    ])
    func anUnsafeMethodInvalidatesTheSameOriginLocations(location: String, invalidated: Bool) async throws {
        serve(["Cache-Control": "max-age=60"])
        serve(["Cache-Control": "max-age=60"], path: "/other")
        let cache = HTTPCacheMiddleware(store: store, mode: .shared)
        let session = session(cache)
        for name in ["Location", "Content-Location"] {
            transport.on(.post, "/doc", reply: .status(201, headers: [name: location]))
            _ = try await session.perform(GetDoc())
            _ = try await session.perform(GetOther())
            let before = transport.requests.count
            _ = try await session.perform(ChangeDoc())
            _ = try await session.perform(GetDoc())
            _ = try await session.perform(GetOther())
            #expect(transport.requests.count == before + 2 + (invalidated ? 1 : 0), "\(name): \(location)")
        }
    }

    /// A failed unsafe method invalidates nothing.
    @Test func aFailedUnsafeMethodInvalidatesNothing() async throws {
        serve(["Cache-Control": "max-age=60"])
        transport.on(.post, "/doc", reply: .status(500))
        let session = session(HTTPCacheMiddleware(store: store))
        #expect(try await text(session) == "v1")
        _ = try? await session.perform(ChangeDoc())
        #expect(try await text(session) == "v1")
    }

    /// A URL keeps up to eight variants; a ninth drops the one used least recently.
    @Test func varyKeepsEightVariantsLeastRecentlyUsedOut() async throws {
        transport.on(.get, "/doc") { request in
            .data(
                Data((request.headers["Accept-Language"] ?? "").utf8),
                headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]
            )
        }
        let session = session(HTTPCacheMiddleware(store: store))
        let languages = (0..<9).map { "l\($0)" }
        for language in languages.prefix(8) {
            #expect(try await text(session, ["Accept-Language": language]) == language)
        }
        #expect(try await text(session, ["Accept-Language": "l0"]) == "l0")  // l1 is now the oldest used
        #expect(transport.requests.count == 8)
        #expect(try await text(session, ["Accept-Language": "l8"]) == "l8")
        #expect(store.count == HTTPCacheMiddleware.StoredResponse.maximumVariantsPerKey)
        for language in ["l0", "l2", "l7", "l8"] {
            #expect(try await text(session, ["Accept-Language": language]) == language)
        }
        #expect(transport.requests.count == 9)
        #expect(try await text(session, ["Accept-Language": "l1"]) == "l1")
        #expect(transport.requests.count == 10)
    }

    /// `Vary: *` and a `Vary` naming 50 fields or 100,000 (about 700 KB) are never served from the store;
    /// a megabyte-long value of a field the response varies on is kept as a 64-digit digest.
    @Test(arguments: [
        ("*", false), ((0..<50).map { "X-F\($0)" }.joined(separator: ", "), false),
        ((0..<100_000).map { "X-F\($0)" }.joined(separator: ","), false), ("X-Big", true),
    ])
    func hostileVaryValues(vary: String, served: Bool) async throws {
        serve(["Cache-Control": "max-age=60", "Vary": vary])
        let store = RecordingStore()
        let session = session(HTTPCacheMiddleware(store: store))
        let big = ["X-Big": String(repeating: "b", count: 1 << 20)]
        #expect(try await text(session, big) == "v1")
        #expect(try await text(session, big) == (served ? "v1" : "v2"))
        #expect(store.stored.count == (served ? 1 : 0))
        if let entry = store.stored.first?.response {
            #expect(entry.varyValues.keys.sorted() == ["x-big"])
            #expect(entry.varyValues["x-big"]?.hasPrefix("sha256:") == true)
            #expect(entry.varyValues["x-big"]?.count == 7 + 64)
            #expect(entry.size < 1000)
            var other = big
            other["X-Big"]! += "c"
            #expect(try await text(session, other) == "v2")
        }
    }
}

/// A thread-safe counter for stub handlers.
private final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
