import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /warm` of `Fixtures/reset_server.py`: a request whose connection stays open for the next.
struct Warm: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "reset" }
    var path: String { "/warm" }
}

/// What the reset fixture made of a body it read whole.
struct CheckedBody: JSONApiResponse, FixtureResponse {
    /// `whole` when the body had the length and SHA-256 the query named, `corrupt` otherwise.
    let outcome: String
    let length: Int
    let sha256: String
}

/// `POST /upload?name=&how=` with a body sent as it is; the length and SHA-256 the fixture checks it
/// against go in the query too (`ReusedConnectionResetTests` adds them to each exchange).
struct CutUpload: ApiMethod {
    typealias Response = CheckedBody
    @Excluded var payload: RequestBody
    var name: String
    var how: String
    var hostProviderKey: String { "reset" }
    var path: String { "/upload" }
    var httpMethod: HTTPMethod { .post }
    var body: RequestBody? { payload }
}
