// DefiningAServiceModule.md, sample 5.
import CoreAPI
import CoreAPIText

struct GetReceipt: ShopMethod {
    typealias Response = String
    @Excluded var order: String
    var path: String { "/orders/\(order)/receipt" }
}
