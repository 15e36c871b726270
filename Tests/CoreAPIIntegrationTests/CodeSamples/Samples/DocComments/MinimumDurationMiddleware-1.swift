// MinimumDurationMiddleware.swift, sample 1.
import CoreAPI

private enum Sample {
    struct Login: ApiMethod {
        typealias Response = EmptyResponse
        let email: String
        let password: String
        var hostProviderKey: String { "api" }
        var httpMethod: HTTPMethod { .post }
        var path: String { "/login" }
        var options: CallOptions { CallOptions(middlewares: [MinimumDurationMiddleware(minimum: .milliseconds(800))]) }
    }
}
