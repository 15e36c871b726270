// SendingFormsAndFiles.md, sample 3.
import CoreAPI
import Foundation

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
