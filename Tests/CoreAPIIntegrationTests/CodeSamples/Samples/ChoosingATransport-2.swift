// ChoosingATransport.md, sample 2: with the AsyncHTTPClient trait only; statements, in the body of a function.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import Foundation

    func makeTrustedTransportSample() throws -> AsyncHTTPClientTransport {
        let authorityPEM = try String(contentsOfFile: "/etc/shop/authority.pem", encoding: .utf8)
        let clientArchive = try Data(contentsOf: URL(fileURLWithPath: "/etc/shop/client.p12"))
        let passphrase = ProcessInfo.processInfo.environment["SHOP_CLIENT_PASSPHRASE"] ?? ""
        let authority = try TLSTrust.Certificate(pem: authorityPEM)
        let identity = TLSTrust.ClientIdentity(pkcs12: clientArchive, passphrase: passphrase)
        let trust = TLSTrust(server: .certificates([authority]), clientIdentity: identity)
        let transport = try AsyncHTTPClientTransport(trust: trust)
        return transport
    }
#endif
