// DefiningAServiceModule.md, sample 2.
import CoreAPI
import CoreAPIJSON

struct Cart: JSONApiResponse {
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
