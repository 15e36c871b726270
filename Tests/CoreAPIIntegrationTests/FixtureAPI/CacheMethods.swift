import CoreAPI
import CoreAPIJSON
import Foundation

/// What `/cache/<name>` returns.
struct CachedItem: JSONApiResponse, Equatable {
    let name: String
    let version: Int
    let language: String
    let user: String?
}

/// `GET /cache/<name>` with the caching headers the query asks for; see the fixture's caching.py.
struct GetCached: ApiMethod {
    typealias Response = CachedItem
    @Excluded var name: String
    var maxAge: Int?
    var noStore: Int?
    var noCache: Int?
    var scope: String?
    var vary: String?
    var etag: Int?
    var lastModified: Int?
    @Excluded var language: String?
    /// Sent as `Authorization: Bearer <token>`.
    @Excluded var token: String?
    @Excluded var policy: HTTPCacheMiddleware.Policy = .useHTTPSemantics
    var hostProviderKey: String { "fixture" }
    var path: String { "/cache/\(name)" }
    var options: CallOptions { CallOptions(cachePolicy: policy) }
    var headers: Headers {
        var headers = Headers()
        if let language { headers["Accept-Language"] = language }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }
}

/// `POST /cache/<name>?maxAge=`: a new version; with the same query, the same target URI as
/// ``GetCached``'s, which RFC 9111 invalidates.
struct ChangeCached: ApiMethod {
    typealias Response = Data
    @Excluded var name: String
    var maxAge: Int
    var hostProviderKey: String { "fixture" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { QueryParametersEncoder(destination: .queryString) }
    var path: String { "/cache/\(name)" }
}

extension FixtureServer {
    /// The requests `/cache/<name>` counted.
    func cacheStats(name: String) throws -> (gets: Int, conditional: Int, notModified: Int, posts: Int) {
        let data = try Data(contentsOf: URL(string: "\(baseURL)/cache-stats?name=\(name)")!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int] ?? [:]
        return (object["gets"] ?? -1, object["conditional"] ?? -1, object["not_modified"] ?? -1, object["posts"] ?? -1)
    }

    /// A new version of `/cache/<name>`, behind the cache's back.
    func bumpCached(name: String) throws {
        _ = try Data(contentsOf: URL(string: "\(baseURL)/cache-bump?name=\(name)")!)
    }
}
