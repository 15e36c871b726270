// UsingCoreAPIUnderAGeneratedClient.md, sample 3: with the OpenAPI trait only.
#if OpenAPI
    import CoreAPIOpenAPI
    import Foundation
    import OpenAPIRuntime

    func saveExport(_ client: Client, to file: FileHandle) async throws {
        let body = try await client.export(query: .init(size: 50_000_000)).ok.body.binary
        for try await chunk in body {
            try file.write(contentsOf: chunk)
        }
    }
#endif
