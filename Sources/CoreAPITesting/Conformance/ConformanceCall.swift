import CoreAPI
import Foundation

/// A call of a conformance case: any method, to a URL of the conformance server sent as written, with
/// the case's fields, body and settings, and no parameters.
struct ConformanceCall<Response: ApiResponse>: ApiMethod {
    var url: URL
    var httpMethod: HTTPMethod = .get
    var headers: Headers = Headers()
    var body: RequestBody?
    var options: CallOptions = CallOptions()
    var hostProviderKey: String { "conformance" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .url(url)
    }

    func encode(to encoder: any Encoder) throws {}
}
