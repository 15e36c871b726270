import CoreAPI
import Foundation

/// One run of a ``TransportConformance/Case``: its server, a session over the transport under test, and
/// the checks the cases are written with, each of which throws a ``TransportConformance/Failure``.
struct ConformanceRun: Sendable {
    let caseName: String
    let server: ConformanceServer
    let session: ApiSession

    init(caseName: String, server: ConformanceServer, transport: any Transport) {
        self.caseName = caseName
        self.server = server
        session = ApiSession(
            hostProvider: DictionaryHostProvider(["conformance": server.baseURL]),
            transport: transport,
            policy: SessionPolicy(secretHeaderNames: [TransportConformance.secretHeaderName])
        )
    }

    /// The URL of `pathAndQuery` on the first origin, or on the second when `otherOrigin` is `true`.
    func url(_ pathAndQuery: String, otherOrigin: Bool = false) -> URL {
        URL(string: (otherOrigin ? server.otherBaseURL : server.baseURL) + pathAndQuery)!
    }

    /// A failure of this case.
    func failure(expected: String, seen: String) -> TransportConformance.Failure {
        TransportConformance.Failure(caseName: caseName, expected: expected, seen: seen)
    }

    /// Throws a failure unless `condition` holds.
    func expect(_ condition: Bool, _ expected: @autoclosure () -> String, seen: @autoclosure () -> String) throws {
        if !condition {
            throw failure(expected: expected(), seen: seen())
        }
    }

    /// The call's output, or a failure that says `what` was expected and which error came instead.
    func perform<Response>(
        _ call: ConformanceCall<Response>,
        expecting what: String,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        do {
            return try await session.perform(call, progress: progress)
        } catch {
            throw failure(expected: what, seen: TransportConformance.Failure.describe(error))
        }
    }

    /// What the echo route saw of the call's request.
    func echo(_ call: ConformanceCall<Data>, expecting what: String) async throws -> EchoReport {
        let data = try await perform(call, expecting: what)
        guard let report = try? JSONDecoder().decode(EchoReport.self, from: data) else {
            throw failure(expected: what, seen: "a body that is not the echo's report (\(data.count) bytes)")
        }
        return report
    }

    /// Checks that the echo saw `length` body bytes whose digest is `digest`.
    func expectBody(of report: EchoReport, _ bytes: [UInt8], _ what: String) throws {
        try expect(
            report.bodyLength == bytes.count && report.bodySHA256 == EchoReport.digest(of: bytes),
            "\(what): the server to receive \(bytes.count) body bytes exactly",
            seen: report.bodyLength == bytes.count
                ? "\(report.bodyLength) bytes with other contents" : "\(report.bodyLength) bytes"
        )
    }

    /// Runs `call` in a task of its own, `prepare`s with the task (a cancel, say), and returns the error
    /// the call ended with and how long it took; a failure when it succeeded, threw no
    /// ``/CoreAPI/ApiError``, or did not end within ``TransportConformance/patience``.
    func error(
        of call: ConformanceCall<Data>,
        expecting what: String,
        prepare: @Sendable (Task<Data, any Error>) async throws -> Void = { _ in }
    ) async throws -> (ApiError, Duration) {
        let session = session
        let start = ContinuousClock.now
        let task = Task { try await session.perform(call) }
        try await prepare(task)
        guard let result = await Self.outcome(of: task, within: TransportConformance.patience) else {
            task.cancel()
            throw failure(
                expected: what,
                seen: "the call still running after \(TransportConformance.patience) (the server stalls 30 s)"
            )
        }
        let elapsed = ContinuousClock.now - start
        switch result {
        case .success(let data):
            throw failure(expected: what, seen: "a response with \(data.count) body bytes after \(elapsed)")
        case .failure(let error as ApiError):
            return (error, elapsed)
        case .failure(let error):
            throw failure(expected: what, seen: TransportConformance.Failure.describe(error))
        }
    }

    /// Checks that `error` is a transport failure of `kind`.
    func expectTransportFailure(_ error: ApiError, kind: ApiError.TransportFailure.Kind, _ what: String) throws {
        guard case .transport(let failure) = error, failure.kind == kind else {
            throw self.failure(expected: what, seen: TransportConformance.Failure.describe(error))
        }
    }

    /// Waits until a request whose target contains `marker` reached the server; a failure after
    /// ``TransportConformance/patience``.
    func waitForArrival(of marker: String, _ what: String) async throws {
        let start = ContinuousClock.now
        while !server.hasReceived(marker) {
            guard ContinuousClock.now - start < TransportConformance.patience else {
                throw failure(expected: what, seen: "no request at the server after \(TransportConformance.patience)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The result of `task`, or `nil` when it has not ended within `limit`; the task is left running.
    static func outcome<Value: Sendable>(
        of task: Task<Value, any Error>,
        within limit: Duration
    ) async -> Result<Value, any Error>? {
        let decided = LockedValue(false)
        return await withCheckedContinuation { continuation in
            let resumeOnce = { @Sendable (outcome: Result<Value, any Error>?) in
                let first = decided.withLock { decided in
                    defer { decided = true }
                    return !decided
                }
                if first { continuation.resume(returning: outcome) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                resumeOnce(nil)
            }
            Task {
                resumeOnce(await task.result)
                timer.cancel()
            }
        }
    }
}
