// DownloadsAndStreams.md, sample 1.
import CoreAPI
import Foundation

struct GetExport: ApiMethod {
    typealias Response = Data
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/exports/\(id)" }
}

struct WatchOrders: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/orders/events" }
    var headers: Headers { ["Accept": "text/event-stream"] }
}

struct ListOrderLines: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/orders/lines.jsonl" }
}
