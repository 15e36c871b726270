// expect-output: unauthorized, the service's expired; other statuses: ShopError sold-out
// A family that reads the service's error body: a 401 still reaches `case .unauthorized`, with the
// service's error beside it; any other status is the service's error.
import CoreAPI
import CoreAPITesting
import CoreAPIText
import Foundation

struct ShopErrorBody: Decodable {
    let code: String
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

struct GetCart: ShopMethod {
    typealias Response = String
    var path: String { "/cart" }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/cart", reply: .json(#"{"code": "expired"}"#, statusCode: 401))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        var line = ""
        do {
            _ = try await session.perform(GetCart())
            line = "no error"
        } catch ApiError.unauthorized(let failure) {
            line = "unauthorized, the service's \((failure.serviceError as? ShopError)?.code ?? "none")"
        } catch {
            line = "other error: \(error)"
        }
        transport.on("/cart", reply: .json(#"{"code": "sold-out"}"#, statusCode: 409))
        do {
            _ = try await session.perform(GetCart())
            line += "; no error"
        } catch let error as ShopError {
            line += "; other statuses: ShopError \(error.code)"
        } catch {
            line += "; other error: \(error)"
        }
        print(line)
    }
}
