import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the fixture's `/multipart` route parsed, with Python's `email` package.
struct ParsedMultipart: JSONApiResponse, FixtureResponse {
    struct Part: Decodable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let size: Int
        let sha256: String
        let text: String?
    }
    let contentType: String
    let contentLength: String?
    let transferEncoding: String?
    let bodySize: Int
    let parts: [Part]

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// What the fixture's `/upload` route counted while streaming the body.
struct UploadReceipt: JSONApiResponse, FixtureResponse {
    let bodySize: Int
    let sha256: String
    let contentType: String?
    let contentLength: String?
    let transferEncoding: String?

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// A multipart upload whose fields are the `fields` value; the encoder settings are not sent.
struct MultipartUpload<Fields: Encodable & Sendable, Response: FixtureResponse>: FixtureMethod {
    var path: String
    var fields: Fields
    var encoder: MultipartFormDataEncoder
    var httpMethod: HTTPMethod = .post
    var tag = ""

    var parametersEncoding: any ParametersEncoding { encoder }

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

/// A form body, echoed back.
struct FormPost: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/form" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { FormParametersEncoder() }
    let title: String
    let tags: [String]
    let starred: Bool
}
