import CoreAPI
import Foundation

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
                outcome: await CallOutcome(session, DelayCall(milliseconds: 2000, timeout: .seconds(0.2)))
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
