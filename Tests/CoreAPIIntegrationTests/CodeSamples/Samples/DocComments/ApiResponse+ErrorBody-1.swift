// ApiResponse+ErrorBody.swift, sample 1.
import CoreAPI
import CoreAPIJSON
import Foundation

extension ShopResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(ShopErrorBody.self, response: response, data: data, error: error) { body, response in
            ShopError(status: response.statusCode, code: body.code)
        }
    }
}
