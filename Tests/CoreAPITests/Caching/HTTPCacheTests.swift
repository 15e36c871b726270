import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Item: ApiResponse, Equatable {
    let text: String
    static func makeResponse(response: HTTPURLResponse, data: Data) -> Item? {
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
    let store = MemoryResponseStore()

    /// The key and the stored entry leave out secret query parameters, `Set-Cookie` and secret fields.
    @Test func noSecretReachesTheStore() async throws {
        transport.on(
            "/item",
            reply: StubResponse(
                headers: [
                    "Cache-Control": "max-age=60", "Set-Cookie": "session=abc", "X-Api-Key": "k", "ETag": "\"1\"",
                ],
                body: Data("one".utf8)
            )
        )
        let cache = HTTPCacheMiddleware(store: store, redaction: Redaction(secretHeaderNames: ["X-Api-Key"]))
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        _ = try await session.perform(GetItem(token: "s3cret"))
        let stored = try #require(await store.response(for: "GET https://api.test/item"))
        #expect(stored.url.absoluteString == "https://api.test/item")
        #expect(stored.headers["Set-Cookie"] == nil)
        #expect(stored.headers["X-Api-Key"] == nil)
        #expect(stored.headers["ETag"] == "\"1\"")
        #expect(!String(describing: stored).contains("s3cret"))
        // A second user's token reaches the same entry: fresh, it answers without the network.
        #expect(try await session.perform(GetItem(token: "other")) == Item(text: "one"))
        #expect(transport.requests.count == 1)
    }

    /// The stored value first, with its age, then the server's; a failure after a stored value is an
    /// event, and the sequence ends without throwing.
    @Test func cachedThenFreshThenFailure() async throws {
        let cache = HTTPCacheMiddleware(store: store)
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        transport.on("/item", reply: StubResponse(headers: ["Cache-Control": "max-age=60"], body: Data("v1".utf8)))
        var first: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            first.append(Self.describe(event))
        }
        #expect(first == ["fresh v1"])
        transport.on("/item", reply: StubResponse(headers: ["Cache-Control": "max-age=60"], body: Data("v2".utf8)))
        var second: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            second.append(Self.describe(event))
        }
        #expect(second == ["cached v1", "fresh v2"])
        transport.on("/item", reply: .failure(.notConnectedToInternet))
        var third: [String] = []
        for try await event in session.cachedThenFresh(GetItem(), cache: cache) {
            third.append(Self.describe(event))
        }
        #expect(third == ["cached v2", "failed offline"])
    }

    /// With nothing stored, a network failure is thrown.
    @Test func aFailureWithNothingStoredThrows() async throws {
        let cache = HTTPCacheMiddleware(store: store)
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        transport.on("/item", reply: .failure(.notConnectedToInternet))
        await #expect(throws: ApiError.self) {
            for try await _ in session.cachedThenFresh(GetItem(), cache: cache) {}
        }
    }

    private static func describe(_ event: CacheThenNetworkEvent<Item>) -> String {
        switch event {
        case .cached(let item, let age): age < .seconds(5) ? "cached \(item.text)" : "cached too old"
        case .fresh(let item): "fresh \(item.text)"
        case .failed(let error): "failed \(FailureCategory(error))"
        }
    }
}
