// Measures the heap memory each loopback call leaves behind, for one client per process.
//
// Usage: RetainedMemory <client> <calls> [<in flight>]
//   client:    coreapi-default, urlsession-lean, urlsession-delegate, urlsession-default, coreapi-ahc or ahc
//              (see `ClientKind` and `DelegateClient`)
//   calls:     how many `GET /user` + decode to measure, after 2,000 warm-up calls
//   in flight: how many of them run at a time, 1 by default
//
// Heap in use is glibc's `mallinfo2()` — `uordblks + hblkhd`, every arena — read after the warm-up, at
// every tenth of the calls, and again after the client was shut down and released. Each reading waits
// until the engine's idle work is done (the figure stops moving) and is the lowest of three, so a
// buffer that happens to be alive at that moment is not counted. Retained bytes per call is the least-
// squares slope of the ten readings against the calls made, which a single late allocation barely moves.
// The resident set (`VmRSS`) and the thread count are printed beside, for reference.
//
// Prints one line of `key=value` pairs, read by `retained-memory.sh`.

import BenchClients
import Foundation
import HeapStatistics
import Synchronization

let warmUpCalls = 2_000
let samples = 10

let arguments = CommandLine.arguments
let clientNames = ClientKind.allCases.map(\.argument) + [DelegateClient.argument]
guard arguments.count == 3 || arguments.count == 4,
    clientNames.contains(arguments[1]),
    let calls = Int(arguments[2]), calls >= samples,
    let inFlight = arguments.count == 4 ? Int(arguments[3]) : 1, inFlight >= 1
else {
    FileHandle.standardError.write(
        Data(
            "usage: RetainedMemory <client> <calls> [<in flight>]; clients: \(clientNames.joined(separator: ", "))\n"
                .utf8
        )
    )
    exit(2)
}
let clientName = arguments[1]

/// The process's heap in use, in bytes: small blocks in every arena and blocks of their own (`mmap`).
func heapInUse() -> Int {
    Int(heap_statistics_bytes_in_use())
}

/// A field of `/proc/self/status` in kB (or a count), `-1` where there is none.
func status(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") ?? -1
    }
    return -1
}

/// The heap in use once idle work has settled: the lowest of three readings 50 ms apart, taken after
/// the figure moved by less than 4 KiB over 100 ms (at most two seconds of waiting).
func settledHeap() async -> Int {
    var last = heapInUse()
    for _ in 0..<20 {
        try? await Task.sleep(for: .milliseconds(100))
        let now = heapInUse()
        defer { last = now }
        if abs(now - last) < 4096 { break }
    }
    var lowest = Int.max
    for _ in 0..<3 {
        try? await Task.sleep(for: .milliseconds(50))
        lowest = min(lowest, heapInUse())
    }
    return lowest
}

/// The least-squares slope of `points`.
func slope(_ points: [(x: Double, y: Double)]) -> Double {
    let n = Double(points.count)
    let meanX = points.map(\.x).reduce(0, +) / n
    let meanY = points.map(\.y).reduce(0, +) / n
    let covariance = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
    let variance = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
    return covariance / variance
}

/// The line printed, or the failure that ended the run.
let result = Mutex<Result<String, BenchServerError>?>(nil)
/// Signalled when the run is done.
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let server = try BenchServerProcess.start()
        defer { server.stop() }
        var client: (any LoopbackClient)? =
            clientName == DelegateClient.argument
            ? DelegateClient(baseURL: server.baseURL)
            : ClientKind.allCases.first { $0.argument == clientName }?.makeClient(baseURL: server.baseURL)
        guard let warm = client else { throw BenchServerError(description: "no client \(clientName)") }
        try await warm.fetchChecked(warmUpCalls, inFlight: inFlight)
        let started = await settledHeap()
        let rssStarted = status("VmRSS")
        var points: [(x: Double, y: Double)] = [(0, Double(started))]
        let clock = ContinuousClock.now
        var made = 0
        for sample in 1...samples {
            let upTo = calls * sample / samples
            try await warm.fetchChecked(upTo - made, inFlight: inFlight)
            made = upTo
            points.append((Double(made), Double(await settledHeap())))
        }
        let elapsed = ContinuousClock.now - clock
        let ended = points.last?.y ?? 0
        let rssEnded = status("VmRSS")
        let threads = status("Threads")
        if ProcessInfo.processInfo.environment["RETAINED_MEMORY_STOP_AFTER_CALLS"] == "1" {
            // For a heap profiler: what is alive now is what it reports as never freed.
            server.stop()
            _exit(0)
        }
        warm.shutdown()
        client = nil
        try? await Task.sleep(for: .seconds(1))
        let released = await settledHeap()
        let perCall = slope(points)
        let line = [
            "client=\(clientName)",
            "calls=\(calls)",
            "in_flight=\(inFlight)",
            String(format: "retained_bytes_per_call=%.1f", perCall),
            String(format: "heap_growth_per_call=%.1f", (ended - Double(started)) / Double(calls)),
            String(format: "after_release_per_call=%.1f", Double(released - started) / Double(calls)),
            "heap_start_kb=\(started / 1024)",
            "heap_end_kb=\(Int(ended) / 1024)",
            "heap_released_kb=\(released / 1024)",
            "rss_start_kb=\(rssStarted)",
            "rss_end_kb=\(rssEnded)",
            "threads=\(threads)",
            String(
                format: "seconds=%.1f",
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            ),
        ].joined(separator: " ")
        result.withLock { $0 = .success(line) }
    } catch let error as BenchServerError {
        result.withLock { $0 = .failure(error) }
    } catch {
        result.withLock { $0 = .failure(BenchServerError(description: String(describing: error))) }
    }
    done.signal()
}
done.wait()
switch result.withLock({ $0 }) {
case .success(let line)?:
    print(line)
case .failure(let error)?:
    FileHandle.standardError.write(Data("RetainedMemory: \(error)\n".utf8))
    exit(1)
case nil:
    exit(1)
}
