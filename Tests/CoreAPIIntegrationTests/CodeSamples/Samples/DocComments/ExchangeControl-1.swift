// ExchangeControl.swift, sample 1: a member, in a transport.
import CoreAPI

private struct EngineTransport: Transport {
    let engine: Engine

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        let control = ExchangeControl.for(options)
        defer { control.finish() }
        control.onEnd { reason in engine.stop(reason) }
        return try await engine.send(request, onProgress: { control.touch() })
    }
}
