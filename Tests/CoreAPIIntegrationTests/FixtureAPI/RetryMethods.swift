import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `/flaky` answers once it stops failing.
struct FlakyAttempts: JSONApiResponse, Equatable {
    let attempts: Int
}

/// `/flaky`: fails `failures` times for `key` with `status` (and `Retry-After` when given), then succeeds.
struct FlakyCall: FixtureMethod {
    typealias Response = FlakyAttempts
    var key: String
    var failures: Int
    var status = 503
    /// The `Retry-After` value, or with `retryAfterDate` the seconds until the date sent.
    var retryAfter: String?
    var retryAfterDate = false
    var httpMethod: HTTPMethod = .get
    var path: String { "/flaky" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        var items = [
            URLQueryItem(name: "key", value: key),
            URLQueryItem(name: "failures", value: String(failures)),
            URLQueryItem(name: "status", value: String(status)),
        ]
        if let retryAfter {
            items.append(URLQueryItem(name: "retry_after", value: retryAfter))
        }
        if retryAfterDate {
            items.append(URLQueryItem(name: "retry_after_date", value: "1"))
        }
        return .components(host: try hostProvider.host(for: hostProviderKey), path: path, queryItems: items)
    }

    func encode(to encoder: any Encoder) throws {}
}

/// `/flaky/log`: when the `/flaky` requests for `key` arrived, in the server's monotonic seconds.
struct FlakyLog: FixtureMethod {
    struct Times: JSONApiResponse {
        let times: [Double]
    }
    typealias Response = Times
    var key: String
    var path: String { "/flaky/log" }
    private enum CodingKeys: String, CodingKey { case key }
}
