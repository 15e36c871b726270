public import Benchmark

/// Custom metrics shared by the suites.
public enum CustomMetrics {
    /// Process CPU time of an iteration in microseconds, from `CLOCK_PROCESS_CPUTIME_ID` (every thread, user
    /// and system); scaled output shows it per operation.
    public static let cpu = BenchmarkMetric.custom(
        "Process CPU (μs)",
        polarity: .prefersSmaller,
        useScalingFactor: true
    )
    /// Operations per second over an iteration, measured with a monotonic clock; not scaled.
    public static let rate = BenchmarkMetric.custom("Operations/s", polarity: .prefersLarger, useScalingFactor: false)
}

extension Benchmark.Configuration {
    /// A configuration for one of the suites.
    ///
    /// With `COREAPI_BENCHMARKS_RAW_UNITS=1` (the threshold script sets it) every metric is kept in its raw
    /// unit — nanoseconds, bytes, counts — so exported samples need no unit conversion; otherwise the
    /// benchmark package picks readable units.
    public static func suite(
        metrics: [BenchmarkMetric],
        warmupIterations: Int,
        scalingFactor: BenchmarkScalingFactor,
        maxDuration: Duration,
        maxIterations: Int
    ) -> Benchmark.Configuration {
        var units: [BenchmarkMetric: BenchmarkUnits] = [:]
        if RunSettings.usesRawUnits {
            for metric in metrics {
                units[metric] = .count
            }
        }
        return Benchmark.Configuration(
            metrics: metrics,
            units: units,
            warmupIterations: warmupIterations,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}

extension Benchmark {
    /// Runs `body`, which performs `count` operations, and records ``CustomMetrics/cpu`` and
    /// ``CustomMetrics/rate`` for it.
    public func measureOperations(_ count: Int, _ body: () async throws -> Void) async rethrows {
        let cpuStart = processCPUNanoseconds()
        let clockStart = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - clockStart
        measurement(CustomMetrics.cpu, (processCPUNanoseconds() - cpuStart) / 1000)
        measurement(CustomMetrics.rate, Int((Double(count) / elapsed.seconds).rounded()))
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
