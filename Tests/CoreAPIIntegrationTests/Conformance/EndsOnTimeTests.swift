import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// Each scenario of ``EndsOnTimeScenarios`` in a process of its own, so that other suites of this
    /// one, running in parallel on two cores, cannot hold the threads a call resumes on.
    @Suite(.timeLimit(.minutes(2)))
    struct EndsOnTimeTests {
        @Test func aCancelledCallEndsAtOnce() async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios")
        }

        @Test func cancelAllEndsEveryCallAtOnce() async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios")
        }

        @Test func anIdleTimeoutEndsTheCallOnTime() async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios")
        }

        @Test func aBasicChallengeEndsAsA401AsSoonAsItArrives() async throws {
            try await StressChild.run(#function, of: "EndsOnTimeScenarios")
        }
    }
}
