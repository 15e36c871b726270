// expect-error: cannot convert value of type 'Int' to expected argument type 'Duration'
// A timeout of one second written as a bare number: times are `Duration`s.
import CoreAPI
import Foundation

struct GetReport: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var options: CallOptions { CallOptions(timeout: 1) }
}
