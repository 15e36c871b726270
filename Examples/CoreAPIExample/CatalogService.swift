import CoreAPI
import CoreAPIJSON
import CoreAPIText
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A small service module: one family protocol that reads the catalog API's shared error body, and
// four methods built on it.

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

/// Catalog methods share the host key and the error body: a status a call does not accept becomes a
/// `CatalogError` when its body is the catalog's error body, whatever the method's response type is.
protocol CatalogMethod: ApiMethod {}

extension CatalogMethod {
    var hostProviderKey: String { "catalog" }

    func statusError(for failure: ApiError.StatusFailure) -> (any Error)? {
        guard let body = try? JSONDecoder().decode(CatalogErrorBody.self, from: failure.body) else { return nil }
        return CatalogError(status: failure.statusCode, code: body.error.code, message: body.error.message)
    }
}

struct Product: JSONApiResponse {
    let id: Int
    let name: String
    let price: Double
}

struct SearchResults: JSONApiResponse {
    let query: String
    let items: [Product]
}

struct Order: JSONApiResponse {
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

struct Terms: TextApiResponse {
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
    var parametersEncoding: any ParametersEncoding { JSONParametersEncoder(keyEncoding: .convertToSnakeCase) }
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
