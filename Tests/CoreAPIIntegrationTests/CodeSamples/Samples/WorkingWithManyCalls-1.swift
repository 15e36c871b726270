// WorkingWithManyCalls.md, sample 1.
import CoreAPI
import Foundation

struct GetAvatar: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var userID: Int
    var hostProviderKey: String { "api" }
    var path: String { "/users/\(userID)/avatar" }
    var options: CallOptions { CallOptions(sharesIdenticalCalls: true) }
}

struct GetBanner: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/banner" }
}
