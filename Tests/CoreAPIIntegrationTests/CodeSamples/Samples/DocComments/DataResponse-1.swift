// DataResponse.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    struct DownloadAttachment: ApiMethod {
        typealias Response = DataResponse
        @Excluded var id: Int
        var hostProviderKey: String { "api" }
        var path: String { "/attachments/\(id)" }
    }

    let attachment = try await session.perform(DownloadAttachment(id: 3))
    if attachment.mimeType == "application/pdf" { showPDF(attachment.data) }
}
