import CoreAPI
import Foundation

/// `/stream/download`: `size` bytes with an `ETag`, ranges honoured; see the fixture's streams.py.
struct GetDownload: ApiMethod {
    typealias Response = Data
    var size: Int
    var name: String
    var etag = "v1"
    var drop: Int?
    var stall: Int?
    var hostProviderKey: String { "fixture" }
    var path: String { "/stream/download" }
}

/// `/stream/sse`: server-sent events, `count` per connection up to `total`, one every `ms`.
struct WatchTicks: ApiMethod {
    typealias Response = Data
    var name: String
    var count = 5
    var total = 1_000_000
    var ms = 200
    @Excluded var deadline: TimeInterval?
    var hostProviderKey: String { "fixture" }
    var path: String { "/stream/sse" }
    var headers: Headers { ["Accept": "text/event-stream"] }
}

/// `/stream/jsonl`: `count` JSON Lines records `{"id": i}`, line `bad` broken.
struct GetRecords: ApiMethod {
    typealias Response = Data
    var count: Int
    var bad: Int?
    var ms = 0
    var hostProviderKey: String { "fixture" }
    var path: String { "/stream/jsonl" }
}

/// A JSON Lines record of `/stream/jsonl`.
struct Record: Decodable, Sendable, Equatable {
    let id: Int
}

extension FixtureServer {
    /// The `Range` and `If-Range` fields of each `/stream/download` request logged under `name`.
    func downloadRequests(name: String) throws -> [(range: String?, ifRange: String?)] {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/stream/download-log?name=\(name)")!)
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["range"] as? String, $0["if_range"] as? String) }
    }

    /// The `Last-Event-ID` of each `/stream/sse` request logged under `name` (`""` for none).
    func eventRequests(name: String) throws -> [String] {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/stream/sse-log?name=\(name)")!)
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }
}
