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
    /// `1` for a weak `ETag`.
    var weak: Int?
    /// `1` for no `ETag` at all.
    var noetag: Int?
    /// `"recent"` for a `Last-Modified` that is not a second before the `Date`.
    var lm: String?
    /// `1` for a gzip-coded body, whatever `Accept-Encoding` asks.
    var gzip: Int?
    /// How far after the offset asked for a `206` starts.
    var shift: Int?
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
    /// The `retry` the stream sends first, in milliseconds.
    var retry: Int?
    /// The `Content-Type` of the stream, when not `text/event-stream`.
    var type: String?
    @Excluded var deadline: Duration?
    var hostProviderKey: String { "fixture" }
    var options: CallOptions { CallOptions(deadline: deadline) }
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
    /// The `Range`, `If-Range` and `Accept-Encoding` fields of each `/stream/download` request logged
    /// under `name`, with the server's monotonic time in seconds when it arrived.
    func downloadRequests(
        name: String
    ) throws -> [(range: String?, ifRange: String?, acceptEncoding: String?, at: Double)] {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/stream/download-log?name=\(name)")!)
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map {
            (
                $0["range"] as? String, $0["if_range"] as? String, $0["accept_encoding"] as? String,
                ($0["at"] as? Double) ?? 0
            )
        }
    }

    /// The `Last-Event-ID` of each `/stream/sse` request logged under `name` (`""` for none).
    func eventRequests(name: String) throws -> [String] {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/stream/sse-log?name=\(name)")!)
        return try JSONSerialization.jsonObject(with: data) as? [String] ?? []
    }
}
