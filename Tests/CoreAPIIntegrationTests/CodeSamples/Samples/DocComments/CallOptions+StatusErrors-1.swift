// CallOptions+StatusErrors.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct GetItem: ApiMethod {
        typealias Response = Data
        @Excluded var id: Int
        var hostProviderKey: String { "api" }
        var path: String { "/items/\(id)" }
        var options: CallOptions { CallOptions(statusErrors: [.notFound: ShopError.noSuchItem]) }
    }
}
