import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The embedded sandbox environment: a mocking middleware with canned catalog replies, so the example
/// runs without any network. The same replies are served by the loopback fixture server of the tests.
enum Sandbox {
    static let host = "https://sandbox.catalog.example"

    static func makeMock() -> MockMiddleware {
        let mock = MockMiddleware()
        // A later rule wins, so the catch-all comes first.
        mock.on(
            .get,
            "/products/*",
            reply: .json(#"{"error": {"code": "not_found", "message": "No such product"}}"#, statusCode: 404)
        )
        mock.on(
            SearchProducts.self,
            reply: .json(
                #"{"query": "lamp", "items": [{"id": 1, "name": "Desk lamp", "price": 24.5}, {"id": 2, "name": "Floor lamp", "price": 89}]}"#
            )
        )
        mock.on(CreateOrder.self) { request, _ in
            let body = request.body.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let quantity = body.contains(#""quantity":2"#) ? 2 : 1
            return .json(
                #"{"id": "ord-1001", "product_id": 1, "quantity": \#(quantity), "status": "accepted"}"#,
                statusCode: 201
            )
        }
        mock.on(GetTerms.self, reply: .text("Terms of sale: returns accepted within 30 days."))
        mock.on(.get, "/products/1", reply: .json(#"{"id": 1, "name": "Desk lamp", "price": 24.5}"#))
        return mock
    }
}
