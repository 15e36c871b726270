// DownloadsAndStreams.md, sample 2.
import CoreAPI
import Foundation

func saveExport(_ id: Int, to destination: URL, with session: ApiSession) async throws -> Int64 {
    let options = DownloadedFile.Options(destination: .file(destination), overwrite: true, maximumSize: 4 << 30)
    let file = try await session.download(GetExport(id: id), options: options) { progress in
        if let total = progress.totalBytes {
            print("\(progress.completedBytes) of \(total) bytes")
        }
    }
    return file.size
}
