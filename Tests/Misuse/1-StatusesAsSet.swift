// expect-error: cannot convert value of type 'Set<Int>' to expected argument type 'AcceptableStatusCodes'
// Accepted statuses written as a `Set<Int>`: the setting's type is `AcceptableStatusCodes`.
import CoreAPI
import Foundation

let accepted: Set<Int> = [200, 404]

struct GetReport: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var options: CallOptions { CallOptions(acceptableStatusCodes: accepted) }
}
