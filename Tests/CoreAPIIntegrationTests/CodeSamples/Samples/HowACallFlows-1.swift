// HowACallFlows.md, sample 1.
import CoreAPI
import Foundation

struct TracingTransport: Transport {
    let base: any Transport

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        var traced = request
        traced.headers.set(UUID().uuidString, for: "X-Trace-ID")
        return try await base.send(traced, options: options)
    }
}
