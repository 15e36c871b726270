// DefiningAServiceModule.md, sample 3.
import CoreAPI
import CoreAPIJSON

struct Product: JSONApiResponse {
    let sku: String
    let name: String
}

struct GetProduct: ShopMethod {
    typealias Response = Product
    @Excluded var sku: String
    var path: String { "/products/\(sku)" }
    var options: CallOptions {
        CallOptions(
            timeout: .seconds(5),
            statusErrors: [.notFound: ShopError(status: 404, code: "no-such-product")]
        )
    }
}
