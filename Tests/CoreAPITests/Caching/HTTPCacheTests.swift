import CoreAPI
import CoreAPITesting
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Item: ApiResponse, Equatable {
    let text: String
    static func makeResponse(response: ResponseHead, data: Data) -> Item? {
        Item(text: String(decoding: data, as: UTF8.self))
    }
}

private struct GetItem: ApiMethod {
    typealias Response = Item
    var token: String?
    var hostProviderKey: String { "api" }
    var path: String { "/item" }
}

/// The HTTP cache with a stub transport: what is stored (no secrets), and cache then network.
@Suite(.timeLimit(.minutes(1)))
struct HTTPCacheTests {
    let transport = StubTransport()
    let store = HTTPCacheMiddleware.MemoryStore()

    /// The key and the stored entry leave out secret query parameters, `Set-Cookie` and secret fields,
    /// the cache's and the session's; the key names the user by a digest, and another user's token
    /// does not reach the entry.
    @Test func noSecretReachesTheStore() async throws {
        transport.on(
            "/item",
            reply: .data(
                Data("one".utf8),
                headers: [
                    "Cache-Control": "max-age=60", "Set-Cookie": "session=abc", "X-Api-Key": "k",
                    "X-Session": "s", "ETag": "\"1\"",
                ]
            )
        )
        let store = RecordingStore()
        let cache = HTTPCacheMiddleware(store: store, secrets: Secrets(headerNames: ["X-Api-Key"]))
        let session = transport.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            middlewares: [cache],
            policy: SessionPolicy(secretHeaderNames: ["X-Session"])
        )
        _ = try await session.perform(GetItem(token: "s3cret"))
        let (key, stored) = try #require(store.stored.first)
        #expect(key.hasPrefix("GET https://api.test/item credentials:hmac-sha256:"))
        #expect(key.count == "GET https://api.test/item credentials:hmac-sha256:".count + 64)
        #expect(stored.url.absoluteString == "https://api.test/item")
        #expect(stored.headers["Set-Cookie"] == nil)
        #expect(stored.headers["X-Api-Key"] == nil)
        #expect(stored.headers["X-Session"] == nil)
        #expect(stored.headers["ETag"] == "\"1\"")
        #expect(!String(describing: stored).contains("s3cret"))
        #expect(try await session.perform(GetItem(token: "s3cret")) == Item(text: "one"))
        #expect(transport.requests.count == 1)
        // A second user's token does not reach the first user's entry.
        _ = try await session.perform(GetItem(token: "other"))
        #expect(transport.requests.count == 2)
    }

    /// The stored value first, with its age, then the server's; a failure after a stored value is an
    /// event, and the sequence ends without throwing.
    @Test func cachedThenFreshThenFailure() async throws {
        let cache = HTTPCacheMiddleware(store: store)
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        transport.on(
            "/item",
            reply: .data(Data("v1".utf8), headers: ["Cache-Control": "max-age=60"])
        )
        var first: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            first.append(Self.describe(event))
        }
        #expect(first == ["fresh v1"])
        transport.on(
            "/item",
            reply: .data(Data("v2".utf8), headers: ["Cache-Control": "max-age=60"])
        )
        var second: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            second.append(Self.describe(event))
        }
        #expect(second == ["cached v1", "fresh v2"])
        transport.on("/item", reply: .failure(.transport(.init(kind: .offline))))
        var third: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            third.append(Self.describe(event))
        }
        #expect(third == ["cached v2", "failed offline"])
    }

    /// The stored value is looked up with the request the fresh call sends: the token a middleware adds
    /// picks the user's own entry, another user's is never shown, and the lookup sends nothing. (It was
    /// looked up before the middlewares, without the token, and found nothing for any user.)
    @Test func cachedThenFreshLooksUpWhatTheMiddlewaresSend() async throws {
        let token = Mutex("ada")
        let served = Mutex(0)
        transport.on("/item") { request in
            let version = served.withLock { count in
                count += 1
                return count
            }
            let user = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? "nobody"
            return .data(Data("\(user) v\(version)".utf8), headers: ["Cache-Control": "private, max-age=60"])
        }
        let cache = HTTPCacheMiddleware(store: store)
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [HeadersMiddleware.bearer { token.withLock { $0 } }, cache]
        )
        func events() async throws -> [String] {
            var events: [String] = []
            for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
                events.append(Self.describe(event))
            }
            return events
        }
        #expect(try await events() == ["fresh ada v1"])
        #expect(try await events() == ["cached ada v1", "fresh ada v2"])
        token.withLock { $0 = "bob" }
        #expect(try await events() == ["fresh bob v3"])
        #expect(try await events() == ["cached bob v3", "fresh bob v4"])
        #expect(transport.requests.count == 4)
    }

    /// With nothing stored, a network failure is thrown.
    @Test func aFailureWithNothingStoredThrows() async throws {
        let cache = HTTPCacheMiddleware(store: store)
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        transport.on("/item", reply: .failure(.transport(.init(kind: .offline))))
        await #expect(throws: ApiError.self) {
            for try await _ in session.cachedThenFresh(GetItem(), cache: cache) {}
        }
    }

    private static func describe(_ event: HTTPCacheMiddleware.CacheThenNetworkEvent<Item>) -> String {
        switch event {
        case .cached(let item, let age): age < .seconds(5) ? "cached \(item.text)" : "cached too old"
        case .fresh(let item): "fresh \(item.text)"
        case .failed(let error): "failed \(ApiError.Category(error))"
        }
    }
}

/// A memory store that records what is stored, by key.
final class RecordingStore: HTTPCacheMiddleware.Store {
    private let memory = HTTPCacheMiddleware.MemoryStore()
    private let recorded = Mutex<[(String, HTTPCacheMiddleware.StoredResponse)]>([])

    /// Every response stored, with its key, in order.
    var stored: [(key: String, response: HTTPCacheMiddleware.StoredResponse)] {
        recorded.withLock { $0.map { (key: $0.0, response: $0.1) } }
    }

    func response(
        for key: String,
        matching matches: @Sendable (HTTPCacheMiddleware.StoredResponse) -> Bool
    ) async -> HTTPCacheMiddleware.StoredResponse? {
        await memory.response(for: key, matching: matches)
    }

    func store(_ response: HTTPCacheMiddleware.StoredResponse, for key: String) async {
        recorded.withLock { $0.append((key, response)) }
        await memory.store(response, for: key)
    }

    func removeResponse(for key: String) async {
        await memory.removeResponse(for: key)
    }

    func removeResponses(classifiedAs classification: String) async {
        await memory.removeResponses(classifiedAs: classification)
    }

    func removeAll() async {
        await memory.removeAll()
    }
}
