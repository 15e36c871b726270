import CoreAPI
import Foundation
import Testing

/// Downloads one body to a file through ``ApiSession`` and prints the process's peak resident memory
/// and the file's size. It runs only in the child process that ``DownloadMemoryTests`` starts.
@Suite struct DownloadMemoryProbe {
    static let sizeVariable = "COREAPI_DOWNLOAD_PROBE_BYTES"
    static let urlVariable = "COREAPI_DOWNLOAD_PROBE_URL"

    struct Result {
        var peakKilobytes: Int
        var fileBytes: Int
    }

    /// Runs the probe over `transport` in a child process and returns what it printed.
    static func run(size: Int, baseURL: String, over transport: TestTransport) throws -> Result {
        let numbers = try ChildProbe.run(
            suite: "DownloadMemoryProbe",
            environment: [sizeVariable: String(size), urlVariable: baseURL],
            over: transport
        )
        return Result(peakKilobytes: numbers[0], fileBytes: numbers[1])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[sizeVariable] != nil))
    func downloadAndPrintPeakMemory() async throws {
        let environment = ProcessInfo.processInfo.environment
        let size = try #require(environment[Self.sizeVariable].flatMap { Int($0) })
        let baseURL = try #require(environment[Self.urlVariable])
        let session = try StressChild.transport().makeSession(
            hostProvider: DictionaryHostProvider(["fixture": baseURL])
        )
        let file = try await session.download(GetDownload(size: size, name: "memory-probe"))
        defer { try? FileManager.default.removeItem(at: file.location) }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.location.path)
        let onDisk = try #require((attributes[.size] as? NSNumber)?.intValue)
        #expect(onDisk == size)
        ChildProbe.report(try ChildProbe.peakResidentKilobytes(), onDisk)
    }
}
