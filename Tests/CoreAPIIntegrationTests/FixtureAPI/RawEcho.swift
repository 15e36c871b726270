import CoreAPIJSON
import Foundation

/// What `/echo/raw` saw: the request line, the headers as sent, and the body's size and digest.
struct RawEcho: JSONApiResponse, FixtureResponse {
    let requestLine: String
    let headers: [[String]]
    let bodySize: Int
    let bodySha256: String
    let port: Int

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// The values of the header `name`, ignoring case.
    func values(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }
}
