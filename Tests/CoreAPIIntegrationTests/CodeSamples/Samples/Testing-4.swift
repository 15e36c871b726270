// Testing.md, sample 4.
import CoreAPI
import CoreAPITesting
import Testing

func makeShopSession(transport: any Transport, token: String) -> ApiSession {
    ApiSession(
        hostProvider: DictionaryHostProvider(["shop": "https://shop.example.com"]),
        transport: transport,
        middlewares: [
            RetryMiddleware(policy: RetryPolicy()),
            TokenRefreshMiddleware(token: token) { _ in "renewed" },
        ]
    )
}

@Test func addToCartSendsTheTokenAndTheBody() async throws {
    let transport = StubTransport()
    transport.on(.post, "/cart/items", reply: .json(#"{"items": ["A-1"], "total": 9.5}"#))
    let session = makeShopSession(transport: transport, token: "t0k")

    let cart = try await session.perform(AddToCart(sku: "A-1", quantity: 1))

    let sent = try #require(transport.requests.first)
    #expect(cart.items == ["A-1"])
    #expect(sent.headers["Authorization"] == "Bearer t0k")
    #expect(sent.bodyText == #"{"quantity":1,"sku":"A-1"}"#)
}
