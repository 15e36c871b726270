import CoreAPI
import Foundation

// Runs the catalog service module against the embedded sandbox, or against a real server with
// `--base-url URL`.

let arguments = CommandLine.arguments.dropFirst()
let session: ApiSession
let sandbox: MockMiddleware?

if let index = arguments.firstIndex(of: "--base-url"), arguments.index(after: index) < arguments.endIndex {
    let baseURL = arguments[arguments.index(after: index)]
    session = ApiSession(hostProvider: DictionaryHostProvider(["catalog": baseURL]))
    sandbox = nil
    print("Catalog at \(baseURL)")
} else {
    let mock = Sandbox.makeMock()
    let hosts = try EnvironmentsHostProvider(
        environments: ["sandbox": ["catalog": Sandbox.host]],
        current: "sandbox"
    )
    session = ApiSession(hostProvider: hosts, middlewares: [mock])
    sandbox = mock
    print("Catalog in the embedded sandbox (\(Sandbox.host))")
}

func run(_ title: String, _ body: () async throws -> String) async -> Bool {
    do {
        print("✓ \(title): \(try await body())")
        return true
    } catch {
        print("✗ \(title): \(error)")
        return false
    }
}

var outcomes: [Bool] = []
outcomes.append(
    await run("search \"lamp\"") {
        let results = try await session.perform(SearchProducts(q: "lamp", limit: 2))
        return results.items.map { "\($0.name) (\($0.price))" }.joined(separator: ", ")
    }
)
outcomes.append(
    await run("create order") {
        let order = try await session.perform(CreateOrder(productID: 1, quantity: 2, idempotencyKey: UUID().uuidString))
        return "\(order.id), \(order.quantity) × product \(order.productID), \(order.status)"
    }
)
outcomes.append(
    await run("terms") {
        try await session.perform(GetTerms()).text
    }
)
outcomes.append(
    await run("missing product is a typed service error") {
        do {
            let product = try await session.perform(GetProduct(id: 999))
            throw CatalogError(status: 200, code: "unexpected", message: "got \(product.name)")
        } catch let error as CatalogError where error.code == "not_found" {
            return "\(error)"
        }
    }
)
if let sandbox {
    print("Sandbox answered \(sandbox.requests.count) requests")
}
exit(outcomes.allSatisfy { $0 } ? 0 : 1)
