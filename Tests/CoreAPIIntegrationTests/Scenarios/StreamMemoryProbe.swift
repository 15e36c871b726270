import CoreAPI
import Foundation
import Testing

/// Reads a 64 MiB stream with a reader that sleeps 10 ms after every 64 KiB it takes, and prints the
/// process's resident size before the stream and its peak during it (KiB), and the bytes read. It runs
/// only in a process started with its variables set: the `Streaming` benchmark makes the same
/// measurement in release, and this is the figure of a debug build, by hand:
///
/// ```
/// COREAPI_STREAM_PROBE_URL=http://127.0.0.1:PORT COREAPI_STRESS_TRANSPORT=asyncHTTPClient \
///   COREAPI_STREAM_PROBE_BUFFER=16777216 swift test --skip-build --filter StreamMemoryProbe …
/// ```
@Suite struct StreamMemoryProbe {
    static let urlVariable = "COREAPI_STREAM_PROBE_URL"
    static let bufferVariable = "COREAPI_STREAM_PROBE_BUFFER"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[urlVariable] != nil))
    func readSlowlyAndPrintPeakMemory() async throws {
        let environment = ProcessInfo.processInfo.environment
        let baseURL = try #require(environment[Self.urlVariable])
        let bufferLimit =
            environment[Self.bufferVariable].flatMap { Int($0) } ?? StreamedResponse.Body.defaultBufferLimit
        let session = try StressChild.transport().makeSession(
            hostProvider: DictionaryHostProvider(["fixture": baseURL])
        )
        let size = 64 << 20
        let before = try Self.statusKilobytes("VmRSS:")
        // Resets VmHWM to the resident size now.
        let clearRefs = try #require(FileHandle(forWritingAtPath: "/proc/self/clear_refs"))
        try clearRefs.write(contentsOf: Data("5".utf8))
        try clearRefs.close()
        let response = try await session.stream(
            GetDownload(size: size, name: "stream-memory-probe"),
            limits: .unlimited,
            bufferLimit: bufferLimit
        )
        var received = 0
        var pending = 0
        for try await piece in response.body {
            received += piece.count
            pending += piece.count
            while pending >= 64 << 10 {
                pending -= 64 << 10
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(received == size)
        ChildProbe.report(before, try ChildProbe.peakResidentKilobytes(), received)
    }

    /// A field of `/proc/self/status` in KiB.
    static func statusKilobytes(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name) })
        return try #require(
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        )
    }
}
