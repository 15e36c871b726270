// AsyncHTTPClientTransport.swift, sample 1: with the AsyncHTTPClient trait only; statements, in the body of a function.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient

    private func sample(hosts: any HostProvider) async throws -> User {
        let transport = AsyncHTTPClientTransport()
        let session = ApiSession(hostProvider: hosts, transport: transport)
        let user = try await session.perform(GetUser(id: 42))
        try await transport.shutdown()
        return user
    }
#endif
