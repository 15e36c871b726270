// ChoosingATransport.md, sample 2: with the AsyncHTTPClient trait only; statements, in the body of a function.
#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient

    extension TrustSampleInputs {
        func makeTransport() throws -> AsyncHTTPClientTransport {
            let authority = try TLSTrust.Certificate(pem: authorityPEM)
            let identity = TLSTrust.ClientIdentity(pkcs12: clientArchive, passphrase: passphrase)
            let trust = TLSTrust(server: .certificates([authority]), clientIdentity: identity)
            let transport = try AsyncHTTPClientTransport(trust: trust)
            return transport
        }
    }
#endif
