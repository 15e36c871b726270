import BenchClients
import BenchSupport
import Benchmark
import CoreAPI
import Foundation
import Synchronization

/// Metrics of the upload.
enum UploadMetrics {
    /// File bytes per second over the whole `perform`, in MB/s (10⁶ bytes).
    static let rate = BenchmarkMetric.custom("Upload MB/s", polarity: .prefersLarger, useScalingFactor: false)
    /// The kernel's peak resident size (`VmHWM`) during the iteration, in bytes.
    static let peak = BenchmarkMetric.custom(
        "Peak resident VmHWM (B)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
}

/// A 1 GiB file in a temporary directory and the loopback server, made in setup and removed in teardown.
final class UploadFixture: Sendable {
    /// The size of the uploaded file.
    static let fileSize = 1 << 30
    /// The directory, the file and the running server, between setup and teardown.
    private let state = Mutex<(directory: URL, file: URL, server: BenchServerProcess)?>(nil)

    /// Writes the file (real bytes, 1 MiB at a time, no holes) and starts the server.
    func setUp() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coreapi-upload-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("upload.bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchServerError(description: "could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        var generator = SystemRandomNumberGenerator()
        var chunk = (0..<(1 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        for index in 0..<(Self.fileSize >> 20) {
            withUnsafeBytes(of: index) { chunk.replaceSubrange(0..<$0.count, with: $0) }
            try handle.write(contentsOf: chunk)
        }
        try handle.close()
        let server = try BenchServerProcess.start()
        state.withLock { $0 = (directory, file, server) }
    }

    /// The file and the server's base URL; only valid between ``setUp()`` and ``tearDown()``.
    var current: (directory: URL, file: URL, baseURL: String) {
        state.withLock { ($0!.directory, $0!.file, $0!.server.baseURL) }
    }

    /// Stops the server and removes the directory with the file.
    func tearDown() {
        let ended = state.withLock { current in
            defer { current = nil }
            return current
        }
        ended?.server.stop()
        if let directory = ended?.directory {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}

/// A multipart upload of a 1 GiB file through `ApiSession.perform` to the loopback server: the encoder
/// writes the body to a temporary file in chunks and the session uploads from it. It runs in an executable
/// of its own, so the peak resident memory is this upload's alone.
let benchmarks: @Sendable () -> Void = {
    let fixture = UploadFixture()
    let configuration = Benchmark.Configuration.suite(
        metrics: [
            .peakMemoryResident, .peakMemoryResidentDelta, .wallClock, .cpuTotal, .throughput,
            UploadMetrics.rate, UploadMetrics.peak, CustomMetrics.cpu,
        ],
        warmupIterations: 0,
        scalingFactor: .one,
        maxDuration: .seconds(900),
        maxIterations: 3
    )
    Benchmark(
        "multipart 1 GiB file",
        configuration: configuration,
        closure: { benchmark in
            let (directory, file, baseURL) = fixture.current
            let session = ApiSession(hostProvider: benchHosts(baseURL))
            defer { session.invalidate() }
            let method = MultipartUpload(
                note: "benchmark upload",
                file: Attachment(fileURL: file),
                temporaryDirectory: directory
            )
            PeakResidentMemory.reset()
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            var received = 0
            try await benchmark.measureOperations(1) {
                received = try await session.perform(method).received
            }
            let elapsed = ContinuousClock.now - start
            benchmark.measurement(UploadMetrics.rate, Int(Double(UploadFixture.fileSize) / elapsed.seconds / 1e6))
            benchmark.measurement(UploadMetrics.peak, PeakResidentMemory.bytes() ?? 0)
            benchmark.stopMeasurement()
            guard received > UploadFixture.fileSize else {
                throw BenchServerError(description: "the server received \(received) bytes")
            }
        },
        setup: { try fixture.setUp() },
        teardown: { fixture.tearDown() }
    )
}
