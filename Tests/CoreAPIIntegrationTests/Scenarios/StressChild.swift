import CoreAPI
import Foundation
import Testing

/// Runs one scenario (of ``ConcurrencyStressScenarios``, for instance) in a child process, over the
/// transport the parent test names, and checks how it went.
enum StressChild {
    static let variable = "COREAPI_STRESS_CHILD"
    /// Names the ``TestTransport`` (its raw value) the child runs its scenario over.
    static let transportVariable = "COREAPI_STRESS_TRANSPORT"

    /// Whether this process is such a child.
    static var isChild: Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }

    /// The transport the parent test asked this child to run its scenario over.
    /// - Throws: ``StressFailure`` when the parent named none this build knows.
    static func transport() throws -> TestTransport {
        let name = ProcessInfo.processInfo.environment[transportVariable] ?? ""
        guard let transport = TestTransport(rawValue: name) else {
            throw StressFailure("\(transportVariable) names no transport of this build: \"\(name)\"")
        }
        return transport
    }

    /// Runs the scenario named like `function` (`name()`, whatever the arguments of the test that asks)
    /// of `suite` over `transport` with Swift Testing in this test binary, in a process of its own,
    /// prints its `stress:` lines and records an issue when it fails, does not run, or the thread
    /// sanitizer reports.
    static func run(
        _ function: String,
        of suite: String = "ConcurrencyStressScenarios",
        over transport: TestTransport
    ) async throws {
        let scenario = String(function.prefix { $0 != "(" }) + "()"
        let filter = suite + "/" + NSRegularExpression.escapedPattern(for: scenario)
        let child = Child(
            arguments: ["--testing-library", "swift-testing", "--filter", filter],
            environment: [variable: "1", transportVariable: transport.rawValue]
        )
        let (status, output) = try await withTaskCancellationHandler {
            try await child.run()
        } onCancel: {
            child.terminate()
        }
        for line in output.split(separator: "\n") where line.hasPrefix("stress:") {
            print("\(line) [\(transport.testDescription)]")
        }
        let passed = output.contains("✔ Test \(scenario) passed") && !output.contains("✘")
        #expect(status == 0 && passed, "the child process ended with \(status):\n\(output.suffix(6000))")
        let reports = output.split(separator: "\n").filter { $0.contains("ThreadSanitizer") }
        #expect(reports.isEmpty, "thread sanitizer reports:\n\(output.suffix(20_000))")
    }

    /// The child process, which a cancelled test terminates.
    private final class Child: Sendable {
        private let state = LockedValue<(process: Process?, isCancelled: Bool)>((nil, false))
        private let arguments: [String]
        private let environment: [String: String]

        /// - Parameters:
        ///   - arguments: The test binary's arguments.
        ///   - environment: Variables set on top of this process's environment.
        init(arguments: [String], environment: [String: String]) {
            self.arguments = arguments
            self.environment = environment
        }

        /// Starts the child and returns its exit status and output once it exits, without holding a
        /// thread of the concurrency pool or of the global queue meanwhile: the wait, minutes long, has a
        /// thread of its own, so timers on the global queue in the tests beside it keep their threads.
        func run() async throws -> (Int32, String) {
            try await withCheckedThrowingContinuation { continuation in
                Thread { [arguments, environment] in
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                    process.arguments = arguments
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
                .start()
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
