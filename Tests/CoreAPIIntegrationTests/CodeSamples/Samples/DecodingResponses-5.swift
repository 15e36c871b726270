// DecodingResponses.md, sample 5.
import CoreAPI

struct ListOrders: ApiMethod {
    typealias Response = WithMetadata<[Order]>
    var hostProviderKey: String { "shop" }
    var path: String { "/orders" }
}

func ordersAndNextPage(session: ApiSession) async throws -> ([Order], String?) {
    let page = try await session.perform(ListOrders())
    return (page.value, page.headers["Link"])
}
