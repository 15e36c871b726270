import CoreAPIJSON
import Foundation
import Testing

// `@testable` for the session's `delegate` and `urlSession`, which the leak checks look at.
@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The outcomes, methods and child-process runner of the concurrency stress scenarios.

/// How a call ended, by category.
enum CallOutcome: Hashable, Sendable, CustomStringConvertible {
    case success
    case cancelled
    case timeout
    case status(Int)
    case other(String)

    /// Performs `method` on `session`; a body other than `expectedBody`, when given, is `.other`.
    init<M: ApiMethod>(_ session: ApiSession, _ method: M, expectedBody: Data? = nil) async where M.Response == Data {
        do {
            let data = try await session.perform(method)
            if let expectedBody, data != expectedBody {
                self = .other("unexpected body \(String(decoding: data, as: UTF8.self))")
            } else {
                self = .success
            }
        } catch {
            self.init(error)
        }
    }

    init(_ error: any Error) {
        switch error {
        case ApiError.cancelled: self = .cancelled
        case ApiError.timeout: self = .timeout
        case ApiError.unacceptableStatus(let failure): self = .status(failure.statusCode)
        default: self = .other(String(describing: error))
        }
    }

    var description: String {
        switch self {
        case .success: "success"
        case .cancelled: "cancelled"
        case .timeout: "timeout"
        case .status(let code): "status \(code)"
        case .other(let text): text
        }
    }
}

/// The calls of ``ConcurrencyStressScenarios/mixedCallsWhileTheEnvironmentSwitches()``, each with the
/// outcome it must have.
enum MixedKind: CaseIterable, Sendable {
    case fast
    case echo
    case serverError
    case timeout
    case cancelTask
    case cancelHandle

    var expected: CallOutcome {
        switch self {
        case .fast, .echo: .success
        case .serverError: .status(500)
        case .timeout: .timeout
        case .cancelTask, .cancelHandle: .cancelled
        }
    }

    func run(on session: ApiSession) async -> MixedRecord {
        switch self {
        case .fast:
            return MixedRecord(
                kind: self,
                outcome: await CallOutcome(session, RawGet(path: "/fast"), expectedBody: Data(#"{"ok":true}"#.utf8))
            )
        case .echo:
            do {
                let echo = try await session.perform(HostEcho())
                return MixedRecord(kind: self, outcome: .success, host: echo.headers["host"])
            } catch {
                return MixedRecord(kind: self, outcome: CallOutcome(error))
            }
        case .serverError:
            return MixedRecord(kind: self, outcome: await CallOutcome(session, RawGet(path: "/status/500")))
        case .timeout:
            return MixedRecord(
                kind: self,
                outcome: await CallOutcome(session, DelayCall(milliseconds: 2000, timeout: 0.2))
            )
        case .cancelTask:
            let task = Task { await CallOutcome(session, DelayCall(milliseconds: 2000)) }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 0..<30)))
            task.cancel()
            return MixedRecord(kind: self, outcome: await task.value)
        case .cancelHandle:
            let result = await withCheckedContinuation { continuation in
                let handle = session.perform(DelayCall(milliseconds: 2000)) { continuation.resume(returning: $0) }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0..<30))) {
                    handle.cancel()
                }
            }
            switch result {
            case .success: return MixedRecord(kind: self, outcome: .success)
            case .failure(let error): return MixedRecord(kind: self, outcome: CallOutcome(error))
            }
        }
    }
}

struct MixedRecord: Sendable, CustomStringConvertible {
    var kind: MixedKind
    var outcome: CallOutcome
    /// The `Host` header the fixture saw, for ``MixedKind/echo``.
    var host: String?

    var description: String {
        "\(kind) ended \(outcome)" + (host.map { " via \($0)" } ?? "")
    }
}

/// `/echo`, to see which environment's host a request went to.
struct HostEcho: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/host" }
    func encode(to encoder: any Encoder) throws {}
}

/// How many requests tagged `tag` reached the fixture.
struct ArrivalCount: FixtureMethod {
    struct Response: JsonApiResponse {
        let count: Int
    }
    let tag: String
    var path: String { "/count" }
}

struct WeakTask {
    weak var task: URLSessionTask?
}

struct WeakReferences {
    weak var session: ApiSession?
    weak var delegate: SessionDelegate?
    weak var urlSession: URLSession?
    var tasks: [WeakTask] = []

    var allReleased: Bool {
        session == nil && delegate == nil && urlSession == nil && tasks.allSatisfy { $0.task == nil }
    }
}

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

/// Whether this process runs under the thread sanitizer (`swift test --sanitize=thread`).
enum ThreadSanitizer {
    static let isActive: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, "__tsan_init") != nil
    }()
}

struct StressFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
