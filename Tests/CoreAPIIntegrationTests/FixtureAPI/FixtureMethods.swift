import CoreAPI
import CoreAPIJSON
import CoreAPIText
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixture's error body: `{"error": {"code": 404, "message": "…"}}`.
struct FixtureErrorBody: Decodable, Equatable {
    struct Detail: Decodable, Equatable {
        let code: Int
        let message: String
    }
    let error: Detail
}

/// The error a fixture service reports when the server sent its error body.
struct FixtureServiceError: Error, Equatable {
    let status: Int
    let message: String
}

/// A service module's family protocol: every response first looks for the common error body.
protocol FixtureResponse: ApiResponse {}

extension FixtureResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(FixtureErrorBody.self, response: response, data: data, error: error) { body, response in
            FixtureServiceError(status: response.statusCode, message: body.error.message)
        }
    }
}

/// What `/echo` returns.
struct Echo: JSONApiResponse, FixtureResponse {
    let method: String
    let path: String
    let query: String
    let headers: [String: String]
    let body: String
    let bodySize: Int
}

/// Methods of the fixture service share the host key and a tag header the fixture counts.
protocol FixtureMethod: ApiMethod {
    var path: String { get }
    var tag: String { get }
}

extension FixtureMethod {
    var hostProviderKey: String { "fixture" }
    var tag: String { "" }
    var headers: Headers { tag.isEmpty ? Headers() : ["X-Test-Tag": tag] }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
}

/// Any path, raw bytes back, no parameters.
struct RawGet: FixtureMethod {
    typealias Response = Data
    var path: String
    var tag = ""
    var httpMethod: HTTPMethod = .get
    var timeout: Duration?
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var options: CallOptions { CallOptions(timeout: timeout, acceptableStatusCodes: acceptableStatusCodes) }
    func encode(to encoder: any Encoder) throws {}
}

/// A search with query parameters, echoed back.
struct EchoSearch: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/search" }
    let query: String
    let page: Int
    let tags: [String]
    let exact: Bool?
}

/// Asks the fixture for a session cookie `name=value` scoped to `cookiePath`.
struct SetCookie: FixtureMethod {
    typealias Response = Data
    var path: String { "/set-cookie" }
    let name: String
    let value: String
    let cookiePath: String

    enum CodingKeys: String, CodingKey {
        case name, value
        case cookiePath = "path"
    }
}

/// Any path, echoed back.
struct EchoAt: FixtureMethod {
    typealias Response = Echo
    var path: String
    func encode(to encoder: any Encoder) throws {}
}

/// A JSON body, echoed back.
struct EchoCreate: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/items" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { JSONParametersEncoder() }
    let name: String
    let price: Double
    let note: String?
}

/// A form body, echoed back.
struct EchoForm: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/form" }
    var httpMethod: HTTPMethod { .put }
    var parametersEncoding: any ParametersEncoding { QueryParametersEncoder() }
    let title: String
    let count: Int
}

/// A status code answered with the fixture's error body.
struct StatusCall: FixtureMethod {
    typealias Response = Echo
    let code: Int
    var path: String { "/status/\(code)" }
    func encode(to encoder: any Encoder) throws {}
}

/// Text in the server's charset.
struct TextCall: FixtureMethod {
    typealias Response = String
    var path: String
    func encode(to encoder: any Encoder) throws {}
}

/// The gzip route.
struct GzipCall: FixtureMethod {
    struct Payload: JSONApiResponse {
        let compressed: Bool
        let items: [Int]
    }
    typealias Response = Payload
    var path: String { "/gzip" }
    func encode(to encoder: any Encoder) throws {}
}

/// A delayed answer.
struct DelayCall: FixtureMethod {
    typealias Response = Data
    var milliseconds: Int
    var timeout: Duration?
    var options: CallOptions { CallOptions(timeout: timeout) }
    var tag = ""
    /// Ends the wait early when ``ReleaseCall`` names it: `milliseconds` is then only the longest wait.
    var release: String?
    var path: String { "/delay" }
    private enum CodingKeys: String, CodingKey {
        case milliseconds = "ms"
        case release
    }
}

/// Ends the waits of the ``DelayCall``s with `release` set to `name`, and of any that arrive later.
struct ReleaseCall: FixtureMethod {
    typealias Response = Data
    /// Sent as the query's `tag`, not as the `X-Test-Tag` header, which the fixture counts.
    var name: String
    var path: String { "/release" }
    private enum CodingKeys: String, CodingKey { case name = "tag" }
}
