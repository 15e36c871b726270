// README.md, sample 1: in ReadmeSamples, since GettingStarted.md declares the same types.
import CoreAPI
import CoreAPIJSON

extension ReadmeSamples {
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
}
