// UsingCoreAPIUnderAGeneratedClient.md, sample 2: with the OpenAPI trait only.
#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import OpenAPIRuntime

    func noteTitle(_ client: Client) async throws -> String? {
        do {
            switch try await client.getNote(path: .init(noteID: 7)) {
            case .ok(let ok):
                return try ok.body.json.title
            case .notFound, .undocumented:
                return nil
            }
        } catch let error as ClientError where error.underlyingError as? ApiError == .timeout {
            return nil  // the session's deadline or idle timeout ended the call
        }
    }
#endif
