// DetachedTransport.swift, sample 1: statements, in the body of a function.
import CoreAPI

/// An engine's transport that cannot stop an exchange when told.
private struct BlockingEngineTransport: Transport {
    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        throw ApiError.cancelled
    }
}

private func sample() -> ApiSession {
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        transport: DetachedTransport(BlockingEngineTransport(), reportsActivity: false)
    )
    return session
}
