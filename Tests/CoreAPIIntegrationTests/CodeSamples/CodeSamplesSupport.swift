import CoreAPI
import Foundation

// What the samples in `Samples/` take as given without showing it, and what the tests add to them. Nothing here
// appears in a document. This file does not import Testing, whose own `Attachment` type would make the name
// ambiguous.

/// README.md declares the same `User` and `GetUser` as GettingStarted.md, so its samples are compiled inside this
/// namespace, beside the articles' ones in the same module.
enum ReadmeSamples {}

/// SendingFormsAndFiles.md's upload with an attachment in memory, for the test that checks the article's claims.
func makeUploadDocumentSample() -> UploadDocument {
    UploadDocument(
        title: "Q3",
        tags: ["finance", "2026"],
        file: Attachment(data: Data("%PDF-1.7".utf8), filename: "q3-report.pdf")
    )
}
