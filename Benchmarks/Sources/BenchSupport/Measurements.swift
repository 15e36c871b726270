import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings shared by every suite.
public enum RunSettings {
    /// Whether the run is a short one (`COREAPI_BENCHMARKS_SHORT=1`, as the threshold script's `--short`
    /// sets): fewer iterations and a shorter time per benchmark.
    public static let isShort = ProcessInfo.processInfo.environment["COREAPI_BENCHMARKS_SHORT"] == "1"

    /// Whether metrics keep their raw units (`COREAPI_BENCHMARKS_RAW_UNITS=1`), for exports.
    public static let usesRawUnits = ProcessInfo.processInfo.environment["COREAPI_BENCHMARKS_RAW_UNITS"] == "1"

    /// The operations each iteration of a per-request benchmark performs; it matches the `.kilo` scaling
    /// factor, so scaled figures are per operation.
    public static let operationsPerIteration = 1000
}

/// The CPU time of the whole process (every thread, user and system) so far, in nanoseconds.
///
/// `CLOCK_PROCESS_CPUTIME_ID` counts with nanosecond resolution, whereas the benchmark package's `cpuTotal`
/// comes from `/proc/self/stat` in scheduler ticks (10 ms), too coarse for single iterations.
public func processCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
}

/// Peak resident memory of this process as the kernel counts it (`VmHWM`).
public enum PeakResidentMemory {
    /// Resets the peak to the current resident size (Linux: `5` to `/proc/self/clear_refs`); `false` when
    /// the system does not allow it, in which case the peak covers the whole life of the process.
    @discardableResult
    public static func reset() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// `VmHWM` in bytes, or `nil` where `/proc/self/status` does not exist.
    public static func bytes() -> Int? {
        field("VmHWM:")
    }

    /// The resident size now (`VmRSS`) in bytes, or `nil` where `/proc/self/status` does not exist.
    public static func currentBytes() -> Int? {
        field("VmRSS:")
    }

    /// A field of `/proc/self/status` given in kB, in bytes.
    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
        return kilobytes * 1024
    }
}
