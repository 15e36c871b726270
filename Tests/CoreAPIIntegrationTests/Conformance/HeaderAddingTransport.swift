#if AsyncHTTPClient
    import CoreAPI

    /// A transport as an application writes one, with CoreAPI's public API only: it adds a header field
    /// to every request and hands it to another transport, so the session gives it the same
    /// timeouts, cancellation and progress.
    struct HeaderAddingTransport: Transport {
        /// The field it adds.
        static let fieldName = "X-Wrapped-By"

        let base: any Transport

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            var request = request
            request.headers.set("HeaderAddingTransport", for: Self.fieldName)
            return try await base.send(request, options: options)
        }

        func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            var request = request
            request.headers.set("HeaderAddingTransport", for: Self.fieldName)
            return try await base.openWebSocket(request, options: options)
        }
    }
#endif
