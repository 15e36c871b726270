// CallOptions.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct GetReport: ApiMethod {
        typealias Response = Data
        var hostProviderKey: String { "api" }
        var path: String { "/report" }
        var options: CallOptions {
            CallOptions(timeout: .seconds(5), acceptableStatusCodes: [200, 404])
        }
    }
}
