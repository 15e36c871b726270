// GettingStarted.md, sample 1.
import CoreAPI
import CoreAPIJSON

struct User: JSONApiResponse {
    let id: Int
    let name: String
}

struct GetUser: ApiMethod {
    typealias Response = User
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/users/\(id)" }
}
