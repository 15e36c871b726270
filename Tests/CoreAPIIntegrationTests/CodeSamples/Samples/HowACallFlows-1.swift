// HowACallFlows.md, sample 1.
import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct TracingTransport: Transport {
    let base: any Transport

    func send(_ request: EncodedRequest, options: TransportOptions) async throws -> RawResponse {
        var traced = request
        traced.request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Trace-ID")
        return try await base.send(traced, options: options)
    }
}
