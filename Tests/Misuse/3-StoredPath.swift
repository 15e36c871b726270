// expect-output: requirementSentAsParameter(property: "path"); requests sent: 0
// `let path = "/get"` supplies the path and would also be sent as `?path=%2Fget`: reported, nothing sent.
import CoreAPI
import CoreAPITesting
import Foundation

struct GetThing: ApiMethod {
    typealias Response = Data
    let path = "/get"
    var hostProviderKey: String { "api" }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/get", reply: .text("ok"))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        do {
            _ = try await session.perform(GetThing())
            print("sent \(transport.requests.map(\.url.absoluteString))")
        } catch ApiError.invalidRequest(let reason) {
            print("\(reason.caseName); requests sent: \(transport.requests.count)")
        } catch {
            print("other error: \(error)")
        }
    }
}

extension ApiError.InvalidRequestReason {
    var caseName: String {
        if case .requirementSentAsParameter(let property) = self {
            return "requirementSentAsParameter(property: \"\(property)\")"
        }
        return "\(self)"
    }
}
