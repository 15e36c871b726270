// Observability.md, sample 4: with the HTTPTypes trait only.
#if HTTPTypes
    import CoreAPI
    import CoreAPIHTTPTypes
    import Foundation
    import HTTPTypes

    func forwardedHead(of request: ApiRequest) throws -> ApiRequest {
        var head = HTTPRequest(request)
        head.headerFields[.via] = "1.1 shop-gateway"
        return try ApiRequest(head, body: request.body)
    }
#endif
