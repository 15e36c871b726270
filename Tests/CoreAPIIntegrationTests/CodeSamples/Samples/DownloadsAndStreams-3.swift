// DownloadsAndStreams.md, sample 3.
import CoreAPI
import Foundation

func startExport(_ id: Int, to destination: URL, with session: ApiSession) -> Task<DownloadedFile, any Error> {
    Task {
        let options = DownloadedFile.Options(destination: .file(destination), keepsPartialFile: true)
        return try await session.download(GetExport(id: id), options: options)
    }
}
