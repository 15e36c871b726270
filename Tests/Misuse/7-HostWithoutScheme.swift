// expect-output: invalidURL: write "https://api.example.com"; requests sent: 0
// A host without a scheme: the call fails before sending and gives the spelling to write, instead of a TLS
// failure against a plain-HTTP server.
import CoreAPI
import CoreAPITesting
import Foundation

struct GetStatus: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/status" }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/status", reply: .text("ok"))
        let session = transport.makeSession(hosts: ["api": "api.example.com"])
        do {
            _ = try await session.perform(GetStatus())
            print("sent \(transport.requests.map(\.url.absoluteString))")
        } catch ApiError.invalidRequest(.invalidURL(let text)) where text.contains(#"write "https://api.example.com""#)
        {
            print(#"invalidURL: write "https://api.example.com"; requests sent: "# + "\(transport.requests.count)")
        } catch {
            print("other error: \(error)")
        }
    }
}
