import CoreAPI
import CoreAPITesting
import Foundation

/// The embedded sandbox: the testing-support stub server fed with fixtures, so the example runs
/// without any network. The same fixtures are served by the loopback fixture server of the tests.
enum Sandbox {
    static let host = "https://sandbox.catalog.example"

    static func makeServer() -> StubServer {
        let server = StubServer()
        // A later route wins, so the catch-all comes first.
        server.on(
            .get,
            "/products/*",
            reply: .json(#"{"error": {"code": "not_found", "message": "No such product"}}"#, statusCode: 404)
        )
        server.on(
            .get,
            "/products/search",
            reply: .json(
                #"{"query": "lamp", "items": [{"id": 1, "name": "Desk lamp", "price": 24.5}, {"id": 2, "name": "Floor lamp", "price": 89}]}"#
            )
        )
        server.on(.post, "/orders") { request in
            let body = request.bodyText ?? ""
            let quantity = body.contains(#""quantity":2"#) ? 2 : 1
            return .json(
                #"{"id": "ord-1001", "product_id": 1, "quantity": \#(quantity), "status": "accepted"}"#,
                statusCode: 201
            )
        }
        server.on(.get, "/terms", reply: .text("Terms of sale: returns accepted within 30 days."))
        server.on(.get, "/products/1", reply: .json(#"{"id": 1, "name": "Desk lamp", "price": 24.5}"#))
        return server
    }
}
