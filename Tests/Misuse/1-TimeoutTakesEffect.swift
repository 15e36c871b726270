// expect-output: timeout after 1 s; 404 accepted: 7 bytes
// Written right, a one-second timeout ends a three-second response, and an accepted 404 is returned.
import CoreAPI
import CoreAPITesting
import Foundation

struct GetReport: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var options: CallOptions { CallOptions(timeout: .seconds(1), acceptableStatusCodes: [200, 404]) }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/report", reply: CannedResponse.text("late").delayed(by: .seconds(3)))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        var line = ""
        do {
            _ = try await session.perform(GetReport())
            line = "no timeout"
        } catch ApiError.timeout {
            line = "timeout after 1 s"
        } catch {
            line = "other error: \(error)"
        }
        transport.on("/report", reply: .text("missing", statusCode: 404))
        let body = try? await session.perform(GetReport())
        print("\(line); 404 accepted: \(body.map { "\($0.count) bytes" } ?? "failed")")
    }
}
