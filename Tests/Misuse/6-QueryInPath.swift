// expect-output: invalidURL naming page; requests sent: 0
// A query written into the path would be sent as `/users%3Fpage=2`: the call fails before sending and
// says where the parameter goes.
import CoreAPI
import CoreAPITesting
import Foundation

struct ListUsers: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/users?page=2" }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/users", reply: .text("[]"))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        do {
            _ = try await session.perform(ListUsers())
            print("sent \(transport.requests.map(\.url.absoluteString))")
        } catch ApiError.invalidRequest(.invalidURL(let text)) where text.contains("(page)") {
            print("invalidURL naming page; requests sent: \(transport.requests.count)")
        } catch {
            print("other error: \(error)")
        }
    }
}
