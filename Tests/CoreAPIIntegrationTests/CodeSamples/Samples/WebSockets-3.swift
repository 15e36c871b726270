// WebSockets.md, sample 3: with the AsyncHTTPClient trait only.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient

    // One transport for the process, shut down with it (`shutdown()`); sessions share it.
    func openServerSideSocket(hosts: any HostProvider, transport: AsyncHTTPClientTransport) async throws -> WebSocket {
        let session = ApiSession(hostProvider: hosts, transport: transport)
        return try await session.webSocket(RoomSocket(room: "ops"))
    }
#endif
