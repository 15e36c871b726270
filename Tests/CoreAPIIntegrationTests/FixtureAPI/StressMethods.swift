import CoreAPI
import CoreAPIJSON

/// `/echo`, to see which environment's host a request went to.
struct HostEcho: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/host" }
    func encode(to encoder: any Encoder) throws {}
}

/// How many requests tagged `tag` reached the fixture.
struct ArrivalCount: FixtureMethod {
    struct Response: JSONApiResponse {
        let count: Int
    }
    let tag: String
    var path: String { "/count" }
}
