// JSONApiResponse.swift, sample 1.
import CoreAPI
import CoreAPIJSON
import Foundation

private enum Sample {
    struct User: JSONApiResponse {
        let id: Int
        let createdAt: Date
        static var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }
}
