import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Any call to the fixture, by URL, with the knobs the transport tests turn.
struct TransportCall<Response: ApiResponse>: ApiMethod {
    var url: String
    var httpMethod: HTTPMethod = .get
    var headers: Headers = Headers()
    var body: [String: String] = [:]
    /// Sent instead of `body` when set.
    var fields: (any Encodable & Sendable)?
    var encoder: any ParametersEncoding = JSONParametersEncoder()
    var maximumResponseSize: Int64?
    var deadline: Duration?
    var timeout: Duration?
    var hostProviderKey: String { "fixture" }
    var options: CallOptions {
        CallOptions(timeout: timeout, deadline: deadline, maximumResponseSize: maximumResponseSize)
    }
    var parametersEncoding: any ParametersEncoding { encoder }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .url(try #require(URL(string: url)))
    }

    func encode(to encoder: any Encoder) throws {
        if let fields {
            try fields.encode(to: encoder)
        } else {
            try body.encode(to: encoder)
        }
    }
}
