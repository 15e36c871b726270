// Excluded.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct GetItem: ApiMethod {
        typealias Response = Data
        @Excluded var id: Int
        var verbose = false
        var hostProviderKey: String { "api" }
        var path: String { "/items/\(id)" }
    }
    // GetItem(id: 7) sends GET /items/7?verbose=false, never ?id=7.
}
