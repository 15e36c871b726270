import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// Cookie parameters and an API key in the query, as the module generated from Features.yaml sends them.
@Suite("Generated module: cookie parameters and a query API key")
struct GeneratedCredentialsTests {
    @Test(
        "A cookie parameter is sent in the Cookie field, encoded so it cannot end its cookie",
        arguments: [
            ("s-1", "session=s-1"),
            ("a b;c=d,\"e\"%", "session=a%20b%3Bc=d%2C%22e%22%25"),
            ("Grüße", "session=Gr%C3%BC%C3%9Fe"),
        ]
    )
    func cookieParameter(value: String, field: String) async throws {
        let transport = StubTransport()
        transport.on(.get, "/v1/orders", reply: .json("[]"))
        let session = transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"])
        _ = try await session.perform(ListOrders(xRequestID: "r-1", session: value))
        let request = try #require(transport.requests.first)
        #expect(request.headers["Cookie"] == field)
        #expect(request.url.absoluteString == "https://api.test/v1/orders")
    }

    @Test("Without its optional cookie parameter a method sends no Cookie field")
    func noCookie() async throws {
        let transport = StubTransport()
        transport.on(.get, "/v1/orders", reply: .json("[]"))
        let session = transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"])
        _ = try await session.perform(ListOrders(xRequestID: "r-1"))
        #expect(transport.requests.first?.headers["Cookie"] == nil)
    }

    @Test("An API key in the query is added to every request, after its own query, and is a secret to name")
    func queryKey() async throws {
        let transport = StubTransport()
        transport.on(.get, "/v1/orders", reply: .json("[]"))
        let session = transport.makeSession(
            hosts: [FeaturesHost.key: "https://api.test/v1"],
            middlewares: [FeaturesAuth.keyInQuery(key: { "k&1=2 +" })]
        )
        _ = try await session.perform(ListOrders(status: .placed, xRequestID: "r-1"))
        _ = try await session.perform(ListOrders(xRequestID: "r-2"))
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.test/v1/orders?status=placed&key=k%261%3D2%20%2B",
                "https://api.test/v1/orders?key=k%261%3D2%20%2B",
            ]
        )
        #expect(FeaturesAuth.secretParameterKeys == ["key"])
    }

    @Test("A key that cannot be had fails the call, and nothing is sent")
    func queryKeyFailure() async throws {
        struct NoKey: Error {}
        let transport = StubTransport()
        transport.on(.get, "/v1/orders", reply: .json("[]"))
        let session = transport.makeSession(
            hosts: [FeaturesHost.key: "https://api.test/v1"],
            middlewares: [FeaturesAuth.keyInQuery(key: { throw NoKey() })]
        )
        await #expect(throws: NoKey.self) { try await session.perform(ListOrders(xRequestID: "r-1")) }
        #expect(transport.requests.isEmpty)
    }
}
