// ApiSessionTransport.swift, sample 1: with the OpenAPI trait only; statements, in the body of a function.
#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation

    private func sample(session: ApiSession) -> Client {
        let transport = ApiSessionTransport(session: session)
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: transport)
        return client
    }
#endif
