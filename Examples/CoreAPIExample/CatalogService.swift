import CoreAPI
import CoreAPIJSON
import CoreAPIText
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A small service module: one family protocol for the catalog API's shared error body, and four
// methods built on it.

/// The catalog API's error body: `{"error": {"code": "…", "message": "…"}}`.
struct CatalogErrorBody: Decodable {
    struct Detail: Decodable {
        let code: String
        let message: String
    }
    let error: Detail
}

/// An error the catalog API reported in its error body.
struct CatalogError: Error, CustomStringConvertible {
    let status: Int
    let code: String
    let message: String

    var description: String { "catalog error \(code) (HTTP \(status)): \(message)" }
}

/// Every catalog response first looks for the common error body, then decodes as usual.
protocol CatalogResponse: ApiResponse {}

extension CatalogResponse {
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        processErrorBody(CatalogErrorBody.self, response: response, data: data, error: error) { body, response in
            CatalogError(status: response.statusCode, code: body.error.code, message: body.error.message)
        }
    }
}

/// Catalog methods share the host key; each names its path.
protocol CatalogMethod: ApiMethod where Response: CatalogResponse {}

extension CatalogMethod {
    var hostProviderKey: String { "catalog" }
}

struct Product: JsonApiResponse, CatalogResponse {
    let id: Int
    let name: String
    let price: Double
}

struct SearchResults: JsonApiResponse, CatalogResponse {
    let query: String
    let items: [Product]
}

struct Order: JsonApiResponse, CatalogResponse {
    let id: String
    let productID: Int
    let quantity: Int
    let status: String

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case productID = "productId"
        case quantity, status
    }
}

struct Terms: TextApiResponse, CatalogResponse {
    let text: String

    init?(text: String) {
        self.text = text
    }
}

/// `GET /products/search?q=…&limit=…`
struct SearchProducts: CatalogMethod {
    typealias Response = SearchResults
    let q: String
    let limit: Int
    var path: String { "/products/search" }
}

/// `POST /orders` with a JSON body; the idempotency key is a header, not a parameter.
struct CreateOrder: CatalogMethod {
    typealias Response = Order
    let productID: Int
    let quantity: Int
    @Excluded var idempotencyKey: String
    var path: String { "/orders" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { JsonParametersEncoder(keyEncoding: .convertToSnakeCase) }
    var headers: Headers { ["Idempotency-Key": idempotencyKey] }
}

/// `GET /terms`, plain text in the server's charset.
struct GetTerms: CatalogMethod {
    typealias Response = Terms
    var path: String { "/terms" }
}

/// `GET /products/{id}`.
struct GetProduct: CatalogMethod {
    typealias Response = Product
    @Excluded var id: Int
    var path: String { "/products/\(id)" }
}
