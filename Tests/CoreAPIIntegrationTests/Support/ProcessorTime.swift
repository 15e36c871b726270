#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processor time this process has used, on all its threads, to see whether work goes on in the
/// background. Only meaningful in a process that runs nothing else, such as a scenario's child process.
enum ProcessorTime {
    /// The processor time used so far.
    static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Waits until the process has been idle for two quarters of a second in a row (using less than
    /// 20 ms of processor time in each), or for `limit`, and returns the processor time used since
    /// `start`.
    static func untilIdle(since start: Duration, limit: Duration = .seconds(30)) async throws -> Duration {
        let began = ContinuousClock.now
        var last = now()
        var idleQuarters = 0
        while idleQuarters < 2, ContinuousClock.now - began < limit {
            try await Task.sleep(for: .milliseconds(250))
            let current = now()
            idleQuarters = current - last < .milliseconds(20) ? idleQuarters + 1 : 0
            last = current
        }
        return last - start
    }
}
