// SendingFormsAndFiles.md, sample 1.
import CoreAPI

struct SignIn: ApiMethod {
    typealias Response = EmptyResponse
    let email: String
    let password: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { .form }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/session")
    }
}
