// DefiningAServiceModule.md, sample 3.
import CoreAPI
import CoreAPIJSON

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
