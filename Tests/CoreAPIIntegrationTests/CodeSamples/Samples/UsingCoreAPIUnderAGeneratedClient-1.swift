// UsingCoreAPIUnderAGeneratedClient.md, sample 1: with the OpenAPI trait only; `Client` is the tests' generated client.
#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation

    func makeNotesClient() -> Client {
        let session = ApiSession(
            hostProvider: DictionaryHostProvider([:]),
            middlewares: [RetryMiddleware(), LoggingMiddleware()]
        )
        let transport = ApiSessionTransport(session: session, options: CallOptions(deadline: .seconds(20)))
        return Client(serverURL: URL(string: "https://notes.example.com/v1")!, transport: transport)
    }
#endif
