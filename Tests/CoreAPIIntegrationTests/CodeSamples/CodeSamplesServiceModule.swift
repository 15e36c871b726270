// DefiningAServiceModule.md: the family protocol. This file has exactly the imports the sample shows,
// so the sample compiles as written on Linux, where HTTPURLResponse lives in FoundationNetworking.
import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct ShopErrorBody: Decodable {
    let code: String
    let message: String
}

struct ShopError: Error {
    let status: Int
    let code: String
}

protocol ShopResponse: ApiResponse {}

extension ShopResponse {
    static func process(response: HTTPURLResponse?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(ShopErrorBody.self, response: response, data: data, error: error) { body, response in
            ShopError(status: response.statusCode, code: body.code)
        }
    }
}

// DefiningAServiceModule.md: methods of the module.
protocol ShopMethod: ApiMethod where Response: ShopResponse {}

extension ShopMethod {
    var hostProviderKey: String { "shop" }
}

struct Cart: JsonApiResponse, ShopResponse {
    let items: [String]
    let total: Double
}

struct AddToCart: ShopMethod {
    typealias Response = Cart
    let sku: String
    let quantity: Int
    var path: String { "/cart/items" }
    var httpMethod: HTTPMethod { .post }
}

// DefiningAServiceModule.md: a method's own statuses.
struct Product: JsonApiResponse, ShopResponse {
    let sku: String
    let name: String
}

struct GetProduct: ShopMethod {
    typealias Response = Product
    @Excluded var sku: String
    var path: String { "/products/\(sku)" }
    var statusErrors: StatusErrors { [.notFound: ShopError(status: 404, code: "no-such-product")] }
}

// DefiningAServiceModule.md: messages per status.
func statusMessagesSample(hosts: any HostProvider) -> ApiSession {
    let session = ApiSession(
        hostProvider: hosts,
        statusMessages: [
            .tooManyRequests: "Too many attempts. Try again in a minute.",
            .serviceUnavailable: "The shop is down for maintenance.",
        ]
    )
    return session
}
