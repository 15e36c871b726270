public import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Metrics of the paired benchmarks of work done on one thread (encoding, decoding): CoreAPI and its
/// Foundation baseline measured alternately within every iteration.
public enum PairedWorkMetrics {
    /// CoreAPI's CPU time per operation in an iteration, in nanoseconds.
    public static let coreAPI = BenchmarkMetric.custom(
        "CoreAPI CPU per operation (ns)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
    /// The baseline's CPU time per operation in the same iteration, in nanoseconds.
    public static let baseline = BenchmarkMetric.custom(
        "Foundation CPU per operation (ns)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
    /// CoreAPI's CPU over the baseline's in the same iteration, in thousandths.
    public static let ratio = BenchmarkMetric.custom(
        "CPU ratio (‰)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )

    /// The three metrics, in the order above.
    public static let all = [coreAPI, baseline, ratio]
}

/// The CPU time of the calling thread so far, in nanoseconds.
///
/// Synchronous work stays on one thread, so this leaves out whatever the process's other threads do,
/// which the process clock would count.
public func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
}

extension Benchmark {
    /// Runs `first` and `second` in `blocks` alternating blocks of `operationsPerBlock` calls each (first,
    /// second, second, first, …), so that a change in the machine's speed during the iteration falls on
    /// both alike, and records ``PairedWorkMetrics`` for the iteration: each one's thread CPU time per
    /// call and their ratio.
    public func measurePaired(
        blocks: Int,
        operationsPerBlock: Int,
        first: () throws -> Void,
        second: () throws -> Void
    ) rethrows {
        var totals = (first: 0, second: 0)
        for round in 0..<blocks {
            for runsFirst in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let start = threadCPUNanoseconds()
                for _ in 0..<operationsPerBlock {
                    try runsFirst ? first() : second()
                }
                let spent = threadCPUNanoseconds() - start
                if runsFirst {
                    totals.first += spent
                } else {
                    totals.second += spent
                }
            }
        }
        let operations = max(blocks * operationsPerBlock, 1)
        measurement(PairedWorkMetrics.coreAPI, totals.first / operations)
        measurement(PairedWorkMetrics.baseline, totals.second / operations)
        measurement(PairedWorkMetrics.ratio, totals.first * 1000 / max(totals.second, 1))
    }
}
