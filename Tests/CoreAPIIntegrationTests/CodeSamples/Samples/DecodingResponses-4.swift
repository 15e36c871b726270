// DecodingResponses.md, sample 4.
import CoreAPI
import CoreAPIJSON

struct PendingOrder: JSONApiResponse {
    let id: Int
    let status: String
}

struct GetOrder: ApiMethod {
    typealias Response = OrFallback<Order, PendingOrder>
    @Excluded var id: Int
    var hostProviderKey: String { "shop" }
    var path: String { "/orders/\(id)" }
}
