import BenchClients
import BenchSupport
import Benchmark
import CoreAPI
import Foundation
import Synchronization

#if AsyncHTTPClient
    import CoreAPIAsyncHTTPClient
#endif

/// Metrics of the slow reader.
enum StreamingMetrics {
    /// How far the peak resident size (`VmHWM`, reset before the stream) rose above the resident size
    /// before it, in bytes: what the stream held at most.
    static let growth = BenchmarkMetric.custom(
        "Peak resident growth (B)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
    /// The kernel's peak resident size (`VmHWM`) during the iteration, in bytes.
    static let peak = BenchmarkMetric.custom(
        "Peak resident VmHWM (B)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
}

/// The loopback server, started in setup and stopped in teardown.
final class StreamingFixture: Sendable {
    private let server = Mutex<BenchServerProcess?>(nil)

    /// Starts the server.
    func setUp() throws {
        let started = try BenchServerProcess.start()
        server.withLock { $0 = started }
    }

    /// The server's base URL; only valid between ``setUp()`` and ``tearDown()``.
    var baseURL: String {
        server.withLock { $0!.baseURL }
    }

    /// Stops the server.
    func tearDown() {
        let ended = server.withLock { current in
            defer { current = nil }
            return current
        }
        ended?.stop()
    }
}

/// The stream the reader takes: 64 MiB.
let streamSize = 64 << 20
/// The reader sleeps `readerPause` after every `readerPiece` bytes it takes: about 6 MiB/s, far slower
/// than loopback.
let readerPiece = 64 << 10
let readerPause = Duration.milliseconds(10)

/// Reads `GET /bytes/64 MiB` through `session.stream` with a reader that sleeps 10 ms per 64 KiB, and
/// records how far the peak resident size rose over the resident size before the call.
func readSlowly(
    _ benchmark: Benchmark,
    session: ApiSession,
    bufferLimit: Int
) async throws {
    let before = PeakResidentMemory.currentBytes() ?? 0
    PeakResidentMemory.reset()
    benchmark.startMeasurement()
    var received = 0
    try await benchmark.measureOperations(1) {
        let response = try await session.stream(
            GetBytes(size: streamSize),
            limits: .unlimited,
            bufferLimit: bufferLimit
        )
        var pending = 0
        for try await piece in response.body {
            received += piece.count
            pending += piece.count
            while pending >= readerPiece {
                pending -= readerPiece
                try await Task.sleep(for: readerPause)
            }
        }
    }
    let peak = PeakResidentMemory.bytes() ?? 0
    benchmark.measurement(StreamingMetrics.peak, peak)
    benchmark.measurement(StreamingMetrics.growth, max(peak - before, 0))
    benchmark.stopMeasurement()
    guard received == streamSize else {
        throw BenchServerError(description: "the reader received \(received) bytes")
    }
}

/// A reader slower than the network, over AsyncHTTPClient: with CoreAPI's default buffer the transport
/// reads only as fast as the reader takes, so the stream holds about the buffer's limit; with an
/// unbounded buffer (what every stream had before the buffer was bounded) the whole body piles up.
/// An executable of its own, so its peak resident memory is these streams' alone.
let benchmarks: @Sendable () -> Void = {
    #if AsyncHTTPClient
        let fixture = StreamingFixture()
        let configuration = Benchmark.Configuration.suite(
            metrics: [.wallClock, .cpuTotal, StreamingMetrics.growth, StreamingMetrics.peak],
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .seconds(300),
            maxIterations: 3
        )
        let variants: [(label: String, bufferLimit: Int)] = [
            ("default buffer", StreamedResponse.Body.defaultBufferLimit),
            ("unbounded buffer", .max),
        ]
        for variant in variants {
            Benchmark(
                "slow reader 64 MiB AsyncHTTPClient \(variant.label)",
                configuration: configuration,
                closure: { benchmark in
                    let transport = AsyncHTTPClientTransport()
                    let session = ApiSession(hostProvider: benchHosts(fixture.baseURL), transport: transport)
                    var failure: (any Error)?
                    do {
                        try await readSlowly(benchmark, session: session, bufferLimit: variant.bufferLimit)
                    } catch {
                        failure = error
                    }
                    session.invalidate()
                    try? await transport.shutdown()
                    if let failure { throw failure }
                },
                setup: { try fixture.setUp() },
                teardown: { fixture.tearDown() }
            )
        }
    #endif
}
