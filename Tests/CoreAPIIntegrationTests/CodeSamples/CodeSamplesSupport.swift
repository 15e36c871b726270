import CoreAPI
import Foundation

// What the samples in `Samples/` take as given without showing it, and what the tests add to them. Nothing here
// appears in a document. This file does not import Testing, whose own `Attachment` type would make the name
// ambiguous.

/// README.md declares the same `User` and `GetUser` as GettingStarted.md, so its samples are compiled inside this
/// namespace, beside the articles' ones in the same module.
enum ReadmeSamples {}

/// The app's authentication service that UsingMiddleware.md's session refreshes tokens with.
protocol AuthService: Sendable {
    func refreshAccessToken() async throws -> String
}

/// The text method Testing.md's third sample calls.
struct GetGreeting: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/greeting")
    }
    func encode(to encoder: any Encoder) throws {}
}

/// The values ChoosingATransport.md's TLS sample starts from; the sample is compiled as a method of this type, so
/// its file needs no Foundation to name `Data`.
struct TrustSampleInputs {
    let authorityPEM: String
    let clientArchive: Data
    let passphrase: String
}

/// SendingFormsAndFiles.md's upload with an attachment in memory, for the test that checks the article's claims.
func makeUploadDocumentSample() -> UploadDocument {
    UploadDocument(
        title: "Q3",
        tags: ["finance", "2026"],
        file: Attachment(data: Data("%PDF-1.7".utf8), filename: "q3-report.pdf")
    )
}
