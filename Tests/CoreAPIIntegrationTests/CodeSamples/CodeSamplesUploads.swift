import CoreAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The samples of SendingFormsAndFiles.md, verbatim (indentation aside). This file does not import
// Testing, whose own `Attachment` type would make the name ambiguous.

// SendingFormsAndFiles.md: a form.
struct SignIn: ApiMethod {
    typealias Response = EmptyResponse
    let email: String
    let password: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { .form }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/session")
    }
}

// SendingFormsAndFiles.md: a model with its own date strategy.
struct Booking: Encodable, CustomDateEncoding {
    static var dateEncoding: DateEncodingStrategy { .millisecondsSince1970 }
    let room: Int
    let from: Date
    let to: Date
}

// SendingFormsAndFiles.md: a multipart upload with progress.
struct UploadDocument: ApiMethod {
    typealias Response = EmptyResponse
    let title: String
    let tags: [String]
    let file: Attachment
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { .multipart }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/documents")
    }
}

func uploadReport(with session: ApiSession) async throws {
    let report = Attachment(fileURL: URL(fileURLWithPath: "/tmp/q3-report.pdf"))  // application/pdf
    let upload = UploadDocument(title: "Q3", tags: ["finance", "2026"], file: report)
    _ = try await session.perform(
        upload,
        progress: { progress in print("sent \(progress.completedBytes) of \(progress.totalBytes ?? 0) bytes") }
    )
}

/// The upload sample with an attachment in memory, for the test that checks the article's claims.
func makeUploadDocumentSample() -> UploadDocument {
    UploadDocument(
        title: "Q3",
        tags: ["finance", "2026"],
        file: Attachment(data: Data("%PDF-1.7".utf8), filename: "q3-report.pdf")
    )
}
