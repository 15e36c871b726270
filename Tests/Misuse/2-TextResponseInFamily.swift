// expect-output: ShopError forbidden 403
// A text response in a service's family: the family's error reader runs for it too.
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

struct GetReceipt: ShopMethod {
    typealias Response = String
    var path: String { "/receipt" }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/receipt", reply: .json(#"{"code": "forbidden"}"#, statusCode: 403))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        do {
            _ = try await session.perform(GetReceipt())
            print("no error")
        } catch let error as ShopError {
            print("ShopError \(error.code) \(error.status)")
        } catch {
            print("other error: \(error)")
        }
    }
}
