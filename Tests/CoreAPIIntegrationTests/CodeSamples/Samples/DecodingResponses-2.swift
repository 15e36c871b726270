// DecodingResponses.md, sample 2.
import CoreAPI
import CoreAPIJSON
import Foundation

struct CatalogItem: Decodable, Sendable {
    let sku: String
    let price: Decimal
}

struct Catalog: JSONApiResponse {
    let items: LossyArray<CatalogItem>
}
