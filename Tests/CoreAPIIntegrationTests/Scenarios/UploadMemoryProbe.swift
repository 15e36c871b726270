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

    static var canMeasure: Bool {
        FileManager.default.fileExists(atPath: "/proc/self/status")
    }

    struct Result {
        var peakKilobytes: Int
        var uploadedFileBytes: Int
    }

    /// Runs the probe over `transport` in a child process and returns what it printed.
    static func run(fileSize: Int, baseURL: String, over transport: TestTransport) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "UploadMemoryProbe"]
        var environment = ProcessInfo.processInfo.environment
        environment[sizeVariable] = String(fileSize)
        environment[urlVariable] = baseURL
        environment[StressChild.transportVariable] = transport.rawValue
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PROBE ") }),
            case let fields = line.split(separator: " "),
            fields.count == 3, let peak = Int(fields[1]), let uploaded = Int(fields[2])
        else {
            throw ProbeError(output: text)
        }
        return Result(peakKilobytes: peak, uploadedFileBytes: uploaded)
    }

    struct ProbeError: Error, CustomStringConvertible {
        let output: String
        var description: String { "the upload probe printed no result:\n\(output.suffix(2000))" }
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
        let peak = try Self.peakResidentKilobytes()
        print("PROBE \(peak) \(receipt.bodySize - framing)")
    }

    /// `VmHWM` from `/proc/self/status`: the peak resident set size in KiB.
    static func peakResidentKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
