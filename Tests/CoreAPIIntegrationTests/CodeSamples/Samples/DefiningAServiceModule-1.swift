// DefiningAServiceModule.md, sample 1.
import CoreAPI
import Foundation

struct ShopErrorBody: Decodable {
    let code: String
    let message: String
}

struct ShopError: Error {
    let status: Int
    let code: String
}

protocol ShopMethod: ApiMethod {}

extension ShopMethod {
    var hostProviderKey: String { "shop" }

    func statusError(for failure: ApiError.StatusFailure) -> (any Error)? {
        guard let body = try? JSONDecoder().decode(ShopErrorBody.self, from: failure.body) else { return nil }
        return ShopError(status: failure.statusCode, code: body.code)
    }
}
