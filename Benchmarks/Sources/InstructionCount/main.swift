// Performs loopback requests with one client, for counting the instructions they take under valgrind's
// callgrind (see `count-instructions.sh`).
//
// Usage: InstructionCount <client>[+<client>...] <requests> [<in flight>]
//   client:    coreapi-same, urlsession-same, coreapi-default, urlsession-default, urlsession-lean,
//              coreapi-stub, coreapi-stub-logging, coreapi-stub-metrics, coreapi-stub-tracing, coreapi-ahc,
//              ahc, ahc-default, ahc-shared, coreapi-ahc-logging, coreapi-ahc-metrics, coreapi-ahc-tracing,
//              coreapi-ahc-note, openapi-bridge or openapi-ahc (see `ClientKind`; the last three fetch `GET /notes/1`);
//              several joined by `+` are counted one after the other in one
//              process, each with its own warm-up and its own dump (the Nth client's in dump N), which
//              spares valgrind's start-up for each
//   requests:  how many `GET /user` + decode to perform after 50 warm-up requests
//   in flight: how many of them run at a time, 1 by default
//
// Under callgrind only the counted requests are counted: the counts are set to zero after the warm-up
// and dumped on their own when the last counted answer has arrived (`CallgrindMarks`), so start-up,
// warm-up and shut-down, whose timers and thread exits differ from run to run, stay out of the figure.
//
// After each client's counted requests it prints `cpu <client> <microseconds> <requests>`: the CPU time,
// user and system, every thread of this process used for them (`bridge-cpu.sh` runs it without valgrind
// for these figures).
//
// The server runs in a process of its own, which callgrind does not follow, so only the client's
// instructions are counted. The requests run in a detached task while the main thread waits on a
// semaphore: with top-level `await` the main thread would park in `dispatch_main`, whose `sigsuspend`
// on a constant signal mask makes valgrind crash.

import BenchClients
import CallgrindMarks
import Foundation
import Synchronization

/// Requests made before the counted ones, so lazy set-up is the same in every run.
let warmUpRequests = 50

let arguments = CommandLine.arguments
let kinds =
    arguments.count > 1
    ? arguments[1].split(separator: "+").map { name in ClientKind.allCases.first { $0.argument == name } } : []
guard arguments.count == 3 || arguments.count == 4,
    !kinds.isEmpty, !kinds.contains(where: { $0 == nil }),
    let requests = Int(arguments[2]), requests >= 0,
    let inFlight = arguments.count == 4 ? Int(arguments[3]) : 1, inFlight >= 1
else {
    let clients = ClientKind.allCases.map(\.argument).joined(separator: ", ")
    FileHandle.standardError.write(
        Data("usage: InstructionCount <client>[+<client>...] <requests> [<in flight>]; clients: \(clients)\n".utf8)
    )
    exit(2)
}

/// The CPU time this process has used so far, user and system, in microseconds: every thread of the
/// client (the server runs in a process of its own).
func processCPUMicroseconds() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
        + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// The failure that ended the run, if any.
let failure = Mutex<String?>(nil)
/// Signalled when the requests are done.
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let server = try BenchServerProcess.start()
        defer { server.stop() }
        for case let kind? in kinds {
            let client = kind.makeClient(baseURL: server.baseURL)
            defer { client.shutdown() }
            try await client.fetchChecked(warmUpRequests, inFlight: inFlight)
            callgrind_marks_zero()
            let cpuBefore = processCPUMicroseconds()
            try await client.fetchChecked(requests, inFlight: inFlight)
            let cpuAfter = processCPUMicroseconds()
            callgrind_marks_dump("counted requests: \(kind.argument)")
            print("cpu \(kind.argument) \(cpuAfter - cpuBefore) \(requests)")
        }
    } catch {
        failure.withLock { $0 = String(describing: error) }
    }
    done.signal()
}
done.wait()
if let message = failure.withLock({ $0 }) {
    FileHandle.standardError.write(Data("InstructionCount: \(message)\n".utf8))
    exit(1)
}
