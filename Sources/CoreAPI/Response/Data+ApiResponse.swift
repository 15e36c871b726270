public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Data: ApiResponse {
    /// The raw body bytes.
    public static func makeResponse(response: ResponseHead, data: Data) -> Data? {
        data
    }
}
