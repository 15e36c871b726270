// ApiMethod.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct GetUser: ApiMethod {
        typealias Response = Data
        @Excluded var id: Int
        var hostProviderKey: String { "api" }
        var path: String { "/users/\(id)" }
    }
}
