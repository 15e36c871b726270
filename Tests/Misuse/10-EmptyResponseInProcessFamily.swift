// expect-error: does not conform to protocol 'ShopResponse'
// A family that reads its error body in its models' `process`, constrained as the documentation shows:
// an empty response, whose type never runs that `process`, does not compile.
import CoreAPI
import Foundation

struct ShopError: Error, Decodable {
    let code: String
}

/// The family's models: each reads the service's error body in `process`.
protocol ShopResponse: ApiResponse {}

extension ShopResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        if let response, response.statusCode >= 400, let data,
            let body = try? JSONDecoder().decode(ShopError.self, from: data)
        {
            return .failure(body)
        }
        return standardProcess(response: response, data: data, error: error)
    }
}

protocol ShopMethod: ApiMethod where Response: ShopResponse {}

struct DeleteCart: ShopMethod {
    typealias Response = EmptyResponse
    var hostProviderKey: String { "shop" }
    var httpMethod: HTTPMethod { .delete }
    var path: String { "/cart" }
}
