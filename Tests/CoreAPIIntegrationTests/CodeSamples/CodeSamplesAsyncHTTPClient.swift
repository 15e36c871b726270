// The samples of README.md and the articles that need the AsyncHTTPClient trait: compiled only with it, but checked by
// `CodeSamplesTests` either way.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import Foundation

    // README.md: the AsyncHTTPClient transport.
    func asyncHTTPClientTransportSample(hosts: any HostProvider) async throws -> User {
        let transport = AsyncHTTPClientTransport()
        let session = ApiSession(hostProvider: hosts, transport: transport)
        let user = try await session.perform(GetUser(id: 42))
        try await transport.shutdown()
        return user
    }

    // ChoosingATransport.md: trusting a private authority, and mutual TLS.
    func trustSample(authorityPEM: String, clientArchive: Data, passphrase: String) throws -> AsyncHTTPClientTransport {
        let authority = try TLSCertificate(pem: authorityPEM)
        let identity = TLSClientIdentity(pkcs12: clientArchive, passphrase: passphrase)
        let trust = TLSTrust(server: .certificates([authority]), clientIdentity: identity)
        let transport = try AsyncHTTPClientTransport(trust: trust)
        return transport
    }
#endif
