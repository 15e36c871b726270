// DecodingResponses.md, sample 7.
import CoreAPI
import Foundation

struct GetOrderTotal: ApiMethod {
    typealias Response = Order
    @Excluded var id: Int
    var hostProviderKey: String { "shop" }
    var path: String { "/orders/\(id)" }

    func finalize(_ order: Order) async throws -> Decimal {
        order.total
    }
}
