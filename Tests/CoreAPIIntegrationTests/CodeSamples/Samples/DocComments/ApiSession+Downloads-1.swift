// ApiSession+Downloads.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample(session: ApiSession, exportURL: URL) async throws {
    let file = try await session.download(
        GetExport(id: 7),
        options: DownloadedFile.Options(destination: .file(exportURL), overwrite: true)
    )
    print(file.size, file.location.path)
}
