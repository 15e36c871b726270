import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads one file through ``ApiSession`` and prints the process's peak resident memory. It runs only in
/// the child process that ``UploadMemoryTests`` starts, which sets the environment variables it reads, the
/// transport's (``StressChild/transportVariable``) included.
@Suite struct UploadMemoryProbe {
    static let sizeVariable = "COREAPI_UPLOAD_PROBE_BYTES"
    static let urlVariable = "COREAPI_UPLOAD_PROBE_URL"

    struct Result {
        var peakKilobytes: Int
        var uploadedFileBytes: Int
    }

    /// Runs the probe over `transport` in a child process and returns what it printed.
    static func run(fileSize: Int, baseURL: String, over transport: TestTransport) throws -> Result {
        let numbers = try ChildProbe.run(
            suite: "UploadMemoryProbe",
            environment: [sizeVariable: String(fileSize), urlVariable: baseURL],
            over: transport
        )
        return Result(peakKilobytes: numbers[0], uploadedFileBytes: numbers[1])
    }

    struct Upload: Encodable, Sendable {
        var note: String
        var file: CoreAPI.Attachment
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[sizeVariable] != nil))
    func uploadAndPrintPeakMemory() async throws {
        let environment = ProcessInfo.processInfo.environment
        let size = try #require(environment[Self.sizeVariable].flatMap { Int($0) })
        let baseURL = try #require(environment[Self.urlVariable])
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.makeFile(named: "upload.bin", size: size)
        let transport = try StressChild.transport()
        let session = transport.makeSession(hostProvider: DictionaryHostProvider(["fixture": baseURL]))
        let receipt = try await session.perform(
            MultipartUpload<Upload, UploadReceipt>(
                path: "/upload",
                fields: Upload(note: "memory probe", file: CoreAPI.Attachment(fileURL: file)),
                encoder: MultipartFormDataEncoder(streamingThreshold: 1 << 20, temporaryDirectory: scratch.url)
            )
        )
        // The body is the file plus the multipart framing of two parts.
        let framing = receipt.bodySize - size
        #expect((200..<1000).contains(framing))
        ChildProbe.report(try ChildProbe.peakResidentKilobytes(), receipt.bodySize - framing)
    }
}
