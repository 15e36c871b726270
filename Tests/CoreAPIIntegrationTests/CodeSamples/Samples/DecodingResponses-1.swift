// DecodingResponses.md, sample 1.
import CoreAPI
import CoreAPIJSON
import Foundation

struct Order: JSONApiResponse {
    static var envelope: JSONEnvelope { "data.order" }
    let id: Int
    let total: Decimal
}
