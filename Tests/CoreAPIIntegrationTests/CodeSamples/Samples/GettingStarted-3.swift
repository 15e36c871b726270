// GettingStarted.md, sample 3.
import CoreAPI

struct SearchUsers: ApiMethod {
    typealias Response = [User]
    let query: String
    let limit: Int
    @Excluded var token: String
    var hostProviderKey: String { "api" }
    var path: String { "/users/search" }
    var headers: Headers { ["Authorization": "Bearer \(token)"] }
}
