// expect-output: unused: timeout, acceptableStatusCodes, method, headers, statusErrors, middlewares, deadline, cachePolicy, isLoggingEnabled; requests sent: 0
// A method's settings written as its own properties, under their natural or old names: each one fails the
// call before anything is sent, with the declaration to write instead (they belong in `options`), which
// the program checks.
import CoreAPI
import CoreAPITesting
import Foundation

enum ShopError: Error {
    case noSuchItem
}

struct WithTimeout: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var timeout: TimeInterval? { 1 }
}

struct WithStatusCodes: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var acceptableStatusCodes: Set<Int> { [200, 404] }
}

struct WithMethod: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var method: HTTPMethod { .post }
}

struct WithHeaders: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var headers: [String: String] { ["X-Client": "ios"] }
}

struct WithStatusErrors: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var statusErrors: CallOptions.StatusErrors { [.notFound: ShopError.noSuchItem] }
}

struct WithMiddlewares: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var middlewares: [any Middleware] { [MinimumDurationMiddleware(minimum: .milliseconds(800))] }
}

struct WithDeadline: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var deadline: Duration? { .seconds(30) }
}

struct WithCachePolicy: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var cachePolicy: HTTPCacheMiddleware.Policy { .revalidate }
}

struct WithLogging: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var isLoggingEnabled: Bool { false }
}

@main struct Main {
    static func main() async {
        let transport = StubTransport()
        transport.on("/", reply: .text("ok"))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let methods: [any ApiMethod] = [
            WithTimeout(), WithStatusCodes(), WithMethod(), WithHeaders(), WithStatusErrors(), WithMiddlewares(),
            WithDeadline(), WithCachePolicy(), WithLogging(),
        ]
        var unused: [String] = []
        for method in methods {
            do {
                _ = try await session.perform(method)
                unused.append("sent")
            } catch ApiError.invalidRequest(.unusedSetting(let property, let write)) {
                // The error says what to write instead: the setting in `options`, or the right name.
                let expected =
                    switch property {
                    case "method": "var httpMethod: HTTPMethod"
                    case "headers": "var headers: Headers"
                    default: "var options: CallOptions { CallOptions(\(property): "
                    }
                unused.append(write.contains(expected) ? property : "\(property) (says: \(write))")
            } catch {
                unused.append("other error: \(error)")
            }
        }
        print("unused: \(unused.joined(separator: ", ")); requests sent: \(transport.requests.count)")
    }
}
