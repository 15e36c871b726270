// CachingResponses.md, sample 4.
import CoreAPI
import Foundation

struct ListOrdersOffline: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/orders" }
    var options: CallOptions { CallOptions(cachePolicy: .storedElseLoad) }
}
