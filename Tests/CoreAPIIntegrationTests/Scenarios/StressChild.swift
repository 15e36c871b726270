import CoreAPI
import Foundation
import Testing

/// Runs one scenario of ``ConcurrencyStressScenarios`` in a child process and checks how it went.
enum StressChild {
    static let variable = "COREAPI_STRESS_CHILD"

    /// Whether this process is such a child.
    static var isChild: Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }

    /// Runs the scenario named `function` (`name()`) of `suite` with Swift Testing in this test binary,
    /// in a process of its own, prints its
    /// `stress:` lines and records an issue when it fails, does not run, or the thread sanitizer reports.
    static func run(_ function: String, of suite: String = "ConcurrencyStressScenarios") async throws {
        let filter = suite + "/" + NSRegularExpression.escapedPattern(for: function)
        let child = Child(arguments: ["--testing-library", "swift-testing", "--filter", filter])
        let (status, output) = try await withTaskCancellationHandler {
            try await child.run()
        } onCancel: {
            child.terminate()
        }
        for line in output.split(separator: "\n") where line.hasPrefix("stress:") {
            print(line)
        }
        let passed = output.contains("✔ Test \(function) passed") && !output.contains("✘")
        #expect(status == 0 && passed, "the child process ended with \(status):\n\(output.suffix(6000))")
        let reports = output.split(separator: "\n").filter { $0.contains("ThreadSanitizer") }
        #expect(reports.isEmpty, "thread sanitizer reports:\n\(output.suffix(20_000))")
    }

    /// The child process, which a cancelled test terminates.
    private final class Child: Sendable {
        private let state = LockedValue<(process: Process?, isCancelled: Bool)>((nil, false))
        private let arguments: [String]

        init(arguments: [String]) {
            self.arguments = arguments
        }

        /// Starts the child and returns its exit status and output once it exits, without holding a
        /// thread of the concurrency pool meanwhile.
        func run() async throws -> (Int32, String) {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { [arguments] in
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                    process.arguments = arguments
                    var environment = ProcessInfo.processInfo.environment
                    environment[StressChild.variable] = "1"
                    process.environment = environment
                    let output = Pipe()
                    process.standardOutput = output
                    process.standardError = output
                    do {
                        try self.state.withLock { state in
                            guard !state.isCancelled else { throw CancellationError() }
                            try process.run()
                            state.process = process
                        }
                    } catch {
                        continuation.resume(throwing: error)
                        return
                    }
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
                }
            }
        }

        func terminate() {
            state.withLock { state in
                state.isCancelled = true
                state.process?.terminate()
            }
        }
    }
}
