public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension Data: ApiResponse {
    /// The raw body bytes.
    public static func makeResponse(response: HTTPURLResponse, data: Data) -> Data? {
        data
    }
}
