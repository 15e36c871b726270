// expect-error: protocol requires nested type 'Response'
// A method without `typealias Response`: the compiler names the missing type.
import CoreAPI

struct GetThing: ApiMethod {
    var hostProviderKey: String { "api" }
    var path: String { "/get" }
}
