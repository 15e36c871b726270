// DecodingResponses.md: every sample, in order. This file has exactly the imports the first sample shows.
import CoreAPI
import CoreAPIJSON
import Foundation

struct Order: JsonApiResponse {
    static var envelope: JSONEnvelope { "data.order" }
    let id: Int
    let total: Decimal
}

struct CatalogItem: Decodable, Sendable {
    let sku: String
    let price: Decimal
}

struct Catalog: JsonApiResponse {
    let items: LossyArray<CatalogItem>
}

struct PendingOrder: JsonApiResponse {
    let id: Int
    let status: String
}

struct GetOrder: ApiMethod {
    typealias Response = OrFallback<Order, PendingOrder>
    @Excluded var id: Int
    var hostProviderKey: String { "shop" }
    var path: String { "/orders/\(id)" }
}

struct ListOrders: ApiMethod {
    typealias Response = WithMetadata<[Order]>
    var hostProviderKey: String { "shop" }
    var path: String { "/orders" }
}

func ordersAndNextPage(session: ApiSession) async throws -> ([Order], String?) {
    let page = try await session.perform(ListOrders())
    return (page.value, page.headers["Link"])
}

struct GetOrderTotal: ApiMethod {
    typealias Response = Order
    @Excluded var id: Int
    var hostProviderKey: String { "shop" }
    var path: String { "/orders/\(id)" }

    func finalize(_ order: Order) async throws -> Decimal {
        order.total
    }
}
