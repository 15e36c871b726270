// CallOptions+StatusErrors.swift, sample 2: a member, in a method.
import CoreAPI
import Foundation

// The formatter would break the long line the doc comment shows.
// swift-format-ignore
private struct ReserveItem: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "shop" }
    var httpMethod: HTTPMethod { .post }
    var path: String { "/reservations" }

    var options: CallOptions {
        CallOptions(
            statusErrors: CallOptions.StatusErrors().on(.conflict) { failure in
                (try? JSONDecoder().decode(Conflict.self, from: failure.body)).map(ShopError.conflict) ?? ShopError.unknown
            }
        )
    }
}
