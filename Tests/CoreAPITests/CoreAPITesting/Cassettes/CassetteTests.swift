import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// ``Cassette``: the modes, a recording replayed with no server, and verify mode's drift.
@Suite(.timeLimit(.minutes(1)))
struct CassetteTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cassettes-\(UUID().uuidString)")

    /// A live API whose user's `id` is a number, or a string once `idAsText` is set.
    static func api(idAsText: Bool = false, extraField: Bool = false) -> ClosureServer {
        ClosureServer { request, _ in
            var reply = ClosureServer.Reply()
            if extraField { reply.headers.add("v2", for: "X-Api-Version") }
            let id = idAsText ? #""42""# : "42"
            reply.body = Data(#"{"id":\#(id),"name":"Ada \#(UUID().uuidString)","tags":["a"]}"#.utf8)
            return reply
        }
    }

    static func session(over transport: any Transport) -> ApiSession {
        ApiSession(hostProvider: DictionaryHostProvider(["api": "https://live.test"]), transport: transport)
    }

    @Test(arguments: [
        ([:], Cassette.Mode.replay), (["COREAPI_CASSETTES": "record"], .record),
        (["COREAPI_CASSETTES": "REREcord"], .rerecord), (["COREAPI_CASSETTES": "verify"], .verify),
        (["COREAPI_CASSETTES": "replay"], .replay), (["COREAPI_CASSETTES": "sometimes"], .replay),
    ])
    func theModeComesFromTheEnvironment(environment: [String: String], mode: Cassette.Mode) {
        #expect(Cassette.Mode.fromEnvironment(environment) == mode)
    }

    @Test func aCassetteRecordedWhenMissingReplaysWithNoServer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = Cassette(named: "user", in: folder, mode: .record)
        #expect(recording.effectiveMode == .record)
        let live = try await Self.session(over: recording.makeTransport(live: Self.api()))
            .perform(CassetteCall(route: "/users/42"))
        try recording.finish()

        let replaying = Cassette(named: "user", in: folder, mode: .record)
        #expect(replaying.effectiveMode == .replay)
        let noNetwork = ClosureServer { _, _ in
            Issue.record("the live API was called in replay")
            return ClosureServer.Reply(status: 500)
        }
        let replayed = try await Self.session(over: replaying.makeTransport(live: noNetwork))
            .perform(CassetteCall(route: "/users/42"))
        try replaying.finish()

        #expect(replayed == live)
    }

    @Test func replayWithoutAFileFailsAndNamesIt() throws {
        let cassette = Cassette(named: "absent", in: folder, mode: .replay)

        #expect(throws: Cassette.Failure.missingCassette(path: cassette.url.path)) {
            try cassette.makeTransport(live: Self.api())
        }
    }

    @Test func replayFinishesWithTheUnansweredRequestThenTheUnusedEntries() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = Cassette(named: "two", in: folder, mode: .rerecord)
        let session = Self.session(over: try recording.makeTransport(live: Self.api()))
        _ = try await session.perform(CassetteCall(route: "/users/1"))
        _ = try await session.perform(CassetteCall(route: "/users/2"))
        try recording.finish()

        let unused = Cassette(named: "two", in: folder, mode: .replay)
        _ = try await Self.session(over: unused.makeTransport(live: Self.api())).perform(
            CassetteCall(route: "/users/1")
        )
        #expect(throws: Cassette.Failure.unusedEntries(["#1 GET /users/2"])) { try unused.finish() }

        let unmatched = Cassette(named: "two", in: folder, mode: .replay)
        let replay = Self.session(over: try unmatched.makeTransport(live: Self.api()))
        _ = try? await replay.perform(CassetteCall(route: "/users/3"))
        #expect {
            try unmatched.finish()
        } throws: { error in
            guard case .noMatch(let noMatch) = error as? Cassette.Failure else { return false }
            return noMatch.request == "GET https://live.test/users/3"
        }
    }

    @Test func verifyReportsAChangedFieldTypeAndNewHeaderAsDriftButNotNewValues() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = Cassette(named: "drift", in: folder, mode: .rerecord)
        _ = try await Self.session(over: recording.makeTransport(live: Self.api())).perform(
            CassetteCall(route: "/users/42")
        )
        try recording.finish()
        let recorded = try Data(contentsOf: recording.url)

        let same = Cassette(named: "drift", in: folder, mode: .verify)
        _ = try await Self.session(over: same.makeTransport(live: Self.api())).perform(CassetteCall(route: "/users/42"))
        #expect(try same.finish().isEmpty)

        let changed = Cassette(named: "drift", in: folder, mode: .verify)
        _ = try await Self.session(over: changed.makeTransport(live: Self.api(idAsText: true, extraField: true)))
            .perform(CassetteCall(route: "/users/42"))
        let drift = try changed.finish()

        #expect(
            drift == [
                Cassette.Drift(
                    request: "GET /users/42",
                    differences: ["header fields only live: x-api-version", "JSON $.id: recorded number, live string"]
                )
            ]
        )
        #expect(try Data(contentsOf: recording.url) == recorded, "verify mode rewrote the cassette")
    }

    @Test func verifyFailsOnDriftWhenAsked() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = Cassette(named: "strict", in: folder, mode: .rerecord)
        _ = try await Self.session(over: recording.makeTransport(live: Self.api())).perform(
            CassetteCall(route: "/users/42")
        )
        try recording.finish()

        let strict = Cassette(url: recording.url, mode: .verify, failsOnDrift: true)
        _ = try await Self.session(over: strict.makeTransport(live: Self.api(idAsText: true)))
            .perform(CassetteCall(route: "/users/42"))

        #expect(
            throws: Cassette.Failure.drift([
                Cassette.Drift(request: "GET /users/42", differences: ["JSON $.id: recorded number, live string"])
            ])
        ) {
            try strict.finish()
        }
    }
}
