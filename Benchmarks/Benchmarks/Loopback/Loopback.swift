import BenchClients
import BenchSupport
import Benchmark

/// Metrics of the paired benchmarks.
enum PairMetrics {
    /// CPU of CoreAPI's 1000 requests of an iteration, in microseconds; scaled output shows it per request.
    /// In the `transport floor` pair the first client is `URLSession` with CoreAPI's default configuration
    /// (and in `default session over transport floor` that is the second).
    static let coreAPI = BenchmarkMetric.custom("CoreAPI CPU (μs)", polarity: .prefersSmaller, useScalingFactor: true)
    /// CPU of the baseline's 1000 requests of an iteration, in microseconds.
    static let urlSession = BenchmarkMetric.custom(
        "URLSession CPU (μs)",
        polarity: .prefersSmaller,
        useScalingFactor: true
    )
    /// CoreAPI's CPU over the baseline's in the same iteration, in thousandths.
    static let ratio = BenchmarkMetric.custom("CPU ratio (‰)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// GET + JSON decode of a tiny body from the loopback server (another process, so its CPU time is not
/// counted), one after another and with 8 in flight: CoreAPI with `URLSessionConfiguration.default` next to
/// raw `URLSession` with the same configuration, and CoreAPI's default session next to
/// `URLSession(configuration: .default)`.
///
/// Each variant has a benchmark of its own (all metrics), and each CoreAPI/baseline pair also has a paired
/// benchmark that alternates the two clients within every iteration, whose median CPU ratio is the
/// figure the threshold script checks. Every iteration performs 1000 requests per client (scaling factor
/// `.kilo`), so scaled figures are per request.
let benchmarks: @Sendable () -> Void = {
    let maxDuration: Duration = RunSettings.isShort ? .seconds(3) : .seconds(20)
    let maxIterations = RunSettings.isShort ? 6 : 40
    // A pair's figure is a median of per-iteration ratios, so in a full run the iteration count ends it,
    // not the time: at 1 to 2 ms per request on a slow machine, 20 s gave only 6 to 18 iterations.
    // The full threshold run runs the pairs in three processes of 20 iterations each: every process
    // seeds Swift's hashing at random, and how the seed lays out the transport's header dictionaries
    // moves a client's cost by up to 3 % for the life of the process.
    let pairMaxDuration: Duration = RunSettings.isShort ? .seconds(3) : .seconds(600)
    let pairMaxIterations = RunSettings.isShort ? 6 : 20
    let single = Benchmark.Configuration.suite(
        metrics: [
            .cpuTotal, .cpuUser, .cpuSystem, .wallClock, .mallocCountTotal, .throughput,
            CustomMetrics.cpu, CustomMetrics.rate,
        ],
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: maxDuration,
        maxIterations: maxIterations
    )
    let paired = Benchmark.Configuration.suite(
        metrics: [PairMetrics.coreAPI, PairMetrics.urlSession, PairMetrics.ratio],
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: pairMaxDuration,
        maxIterations: pairMaxIterations
    )
    var pairs: [(name: String, coreAPI: ClientKind, baseline: ClientKind)] = [
        ("same configuration", .coreAPISameConfiguration, .urlSessionSameConfiguration),
        ("default session", .coreAPIDefaultSession, .urlSessionDefault),
        // No CoreAPI: raw URLSession with CoreAPI's default configuration against `.default`, the lowest
        // ratio the default session could reach through the same transport.
        ("transport floor", .urlSessionLean, .urlSessionDefault),
        // CoreAPI's default session against raw URLSession with the same lean configuration: what CoreAPI
        // itself costs on top of the floor, measured in the same iterations rather than across two pairs.
        ("default session over transport floor", .coreAPIDefaultSession, .urlSessionLean),
    ]
    #if AsyncHTTPClient
        pairs += [
            // CoreAPI over its AsyncHTTPClient transport against raw AsyncHTTPClient with the same client
            // configuration: what CoreAPI costs on that transport.
            ("AsyncHTTPClient transport", .coreAPIAsyncHTTPClient, .asyncHTTPClient),
            // The same against raw AsyncHTTPClient with its default configuration, as a server without
            // CoreAPI sets it up.
            (
                "AsyncHTTPClient transport over AsyncHTTPClient default", .coreAPIAsyncHTTPClient,
                .asyncHTTPClientDefault
            ),
            // CoreAPI over AsyncHTTPClient against raw URLSession `.default`: what a Linux server gains by
            // picking the AsyncHTTPClient transport.
            ("AsyncHTTPClient transport over URLSession default", .coreAPIAsyncHTTPClient, .urlSessionDefault),
        ]
    #endif
    for (label, inFlight) in [("sequential", 1), ("concurrent8", 8)] {
        for kind in ClientKind.allCases where kind != .urlSessionLean && !kind.isStub && !kind.measuresBridge {
            let fixture = LoopbackFixture(kinds: [kind])
            Benchmark(
                "\(label): \(kind.rawValue)",
                configuration: single,
                closure: { benchmark in
                    let client = fixture.clients[0]
                    let count = benchmark.scaledIterations.count
                    try await benchmark.measureOperations(count) {
                        try await fetch(count, inFlight: inFlight, with: client)
                    }
                },
                setup: { try await fixture.setUp() },
                teardown: { fixture.tearDown() }
            )
        }
        for pair in pairs {
            let fixture = LoopbackFixture(kinds: [pair.coreAPI, pair.baseline])
            Benchmark(
                "\(label) pair: \(pair.name)",
                configuration: paired,
                closure: { benchmark in
                    let clients = fixture.clients
                    let count = benchmark.scaledIterations.count
                    let cpu = try await pairedCPU(count, inFlight: inFlight, first: clients[0], second: clients[1])
                    benchmark.measurement(PairMetrics.coreAPI, cpu.first)
                    benchmark.measurement(PairMetrics.urlSession, cpu.second)
                    benchmark.measurement(PairMetrics.ratio, cpu.first * 1000 / max(cpu.second, 1))
                },
                setup: { try await fixture.setUp() },
                teardown: { fixture.tearDown() }
            )
        }
    }
}
