// DefiningAServiceModule.md, sample 1.
import CoreAPI
import CoreAPIJSON
import Foundation

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
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(ShopErrorBody.self, response: response, data: data, error: error) { body, response in
            ShopError(status: response.statusCode, code: body.code)
        }
    }
}
