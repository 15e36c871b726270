// UsingMiddleware.md, sample 4.
import CoreAPI

struct ClientInfo: Encodable, Sendable {
    let appVersion: String
    let deviceID: String?
    enum CodingKeys: String, CodingKey {
        case appVersion = "X-App-Version"
        case deviceID = "X-Device-ID"
    }
}

func makeHeaderMiddlewares() -> [any Middleware] {
    let clientHeaders = HeadersMiddleware(encoding: ClientInfo(appVersion: "4.2", deviceID: nil))
    let apiKey = HeadersMiddleware(["X-Api-Key": "k-123"], policy: .overwrite)
    return [clientHeaders, apiKey]
}
