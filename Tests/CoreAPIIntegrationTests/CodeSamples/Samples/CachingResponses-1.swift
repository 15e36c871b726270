// CachingResponses.md, sample 1.
import CoreAPI
import Foundation

struct ListStoredOrders: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/orders" }
}
