// expect-error: cannot convert value of type 'Set<Int>' to expected argument type 'CallOptions.AcceptableStatusCodes'
// Accepted statuses written as a `Set<Int>`: the setting's type is `CallOptions.AcceptableStatusCodes`.
import CoreAPI
import Foundation

let accepted: Set<Int> = [200, 404]

struct GetReport: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var options: CallOptions { CallOptions(acceptableStatusCodes: accepted) }
}
