// README.md, sample 4: with the AsyncHTTPClient trait only; statements, in the body of a function.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient

    extension ReadmeSamples {
        static func asyncHTTPClientTransportSample() async throws -> User {
            let hosts = DictionaryHostProvider(["api": "https://api.example.com"])
            let transport = AsyncHTTPClientTransport()
            let session = ApiSession(hostProvider: hosts, transport: transport)
            let user = try await session.perform(GetUser(id: 42))
            try await transport.shutdown()
            return user
        }
    }
#endif
