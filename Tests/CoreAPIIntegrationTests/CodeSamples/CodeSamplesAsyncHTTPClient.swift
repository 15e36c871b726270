// The samples of README.md that need the AsyncHTTPClient trait: compiled only with it, but checked by
// `CodeSamplesTests` either way.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient

    // README.md: the AsyncHTTPClient transport.
    func asyncHTTPClientTransportSample(hosts: any HostProvider) async throws -> User {
        let transport = AsyncHTTPClientTransport()
        let session = ApiSession(hostProvider: hosts, transport: transport)
        let user = try await session.perform(GetUser(id: 42))
        try await transport.shutdown()
        return user
    }
#endif
