import CoreAPI
import Foundation
import Testing

/// Peak memory of a 1 GiB download to a file over each transport, measured in a child process (see
/// ``ChildProbe``) against a 1 MiB one.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(3)), .enabled(if: ChildProbe.canMeasure))
    struct DownloadMemoryTests {
        @Test(arguments: TestTransport.engines)
        func aLargeDownloadDoesNotGrowPeakMemoryByItsSize(transport: TestTransport) async throws {
            let server = try FixtureServer.shared()
            let small = try DownloadMemoryProbe.run(size: 1 << 20, baseURL: server.baseURL, over: transport)
            let large = try DownloadMemoryProbe.run(size: 1 << 30, baseURL: server.baseURL, over: transport)
            #expect(small.fileBytes == 1 << 20)
            #expect(large.fileBytes == 1 << 30)
            let growth = large.peakKilobytes - small.peakKilobytes
            print("download peak (\(transport)): 1 MiB \(small.peakKilobytes) KiB, 1 GiB \(large.peakKilobytes) KiB")
            // The body is 1,048,576 KiB; written as it arrives, the peak grows by a few MiB at most.
            #expect(growth < 32 * 1024, "peak grew by \(growth) KiB: \(small.peakKilobytes) → \(large.peakKilobytes)")
        }
    }
}
