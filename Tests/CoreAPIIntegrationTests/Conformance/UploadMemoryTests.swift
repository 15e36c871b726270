import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Peak memory of a large multipart upload over each transport, measured in a child process so the
/// figure is not mixed with the rest of the test run: the child is this test binary running only
/// ``UploadMemoryProbe``.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(3)), .enabled(if: ChildProbe.canMeasure))
    struct UploadMemoryTests {
        @Test(arguments: TestTransport.engines)
        func aLargeUploadDoesNotGrowPeakMemoryByTheFileSize(transport: TestTransport) async throws {
            let server = try FixtureServer.shared()
            let small = try UploadMemoryProbe.run(fileSize: 1 << 20, baseURL: server.baseURL, over: transport)
            let large = try UploadMemoryProbe.run(fileSize: 256 << 20, baseURL: server.baseURL, over: transport)
            #expect(small.uploadedFileBytes == 1 << 20)
            #expect(large.uploadedFileBytes == 256 << 20)
            let growth = large.peakKilobytes - small.peakKilobytes
            // The file is 262,144 KiB; streaming in 1 MiB chunks keeps the growth to a few MiB.
            #expect(growth < 32 * 1024, "peak grew by \(growth) KiB: \(small.peakKilobytes) → \(large.peakKilobytes)")
        }
    }
}
