import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// ``Cassette/Player``: which entry answers which request, what it says when none does, and how a body
/// replays.
@Suite(.timeLimit(.minutes(1)))
struct CassettePlayerTests {
    static func entry(
        _ method: String,
        _ url: String,
        body: String? = nil,
        status: Int = 200,
        reply: String = "{}",
        chunkSizes: [Int]? = nil
    ) -> Cassette.Archive.Entry {
        Cassette.Archive.Entry(
            startedDateTime: "1970-01-01T00:00:00.000Z",
            time: 0,
            request: Cassette.Archive.Request(
                method: method,
                url: url,
                postData: body.map { Cassette.Archive.PostData(mimeType: "application/json", text: $0) }
            ),
            response: Cassette.Archive.Response(
                status: status,
                headers: [Cassette.Archive.Field(name: "Content-Type", value: "application/json")],
                content: Cassette.Archive.Content(mimeType: "application/json", text: reply, chunkSizes: chunkSizes)
            ),
            timings: Cassette.Archive.Timings()
        )
    }

    static func session(_ player: Cassette.Player) -> ApiSession {
        ApiSession(hostProvider: DictionaryHostProvider(["api": "https://replay.test"]), transport: player)
    }

    @Test func aRequestIsAnsweredByItsEntryWhateverTheHostAndTheQueryOrder() async throws {
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [
                Self.entry("GET", "http://127.0.0.1:8080/users?page=2&size=10", reply: #"{"users":[]}"#),
                Self.entry("POST", "http://127.0.0.1:8080/users", body: #"{"name":"Ada","age":36}"#, status: 201),
            ])
        )
        let session = Self.session(player)

        let created = try await session.perform(
            CassetteCall(
                verb: .post,
                route: "/users",
                payload: .data(Data(#"{ "age": 36, "name": "Ada" }"#.utf8), contentType: "application/json")
            )
        )
        let users = try await session.perform(
            CassetteCall(
                route: "/users",
                query: [URLQueryItem(name: "size", value: "10"), .init(name: "page", value: "2")]
            )
        )

        #expect(created == Data("{}".utf8))
        #expect(users == Data(#"{"users":[]}"#.utf8))
        #expect(player.unusedEntries.isEmpty)
        try player.checkAllEntriesUsed()
    }

    @Test func repeatedIdenticalRequestsGetTheRecordedResponsesInOrder() async throws {
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [
                Self.entry("GET", "https://api.test/counter", reply: #"{"n":1}"#),
                Self.entry("GET", "https://api.test/other", reply: #"{"other":true}"#),
                Self.entry("GET", "https://api.test/counter", reply: #"{"n":2}"#),
            ])
        )
        let session = Self.session(player)

        let first = try await session.perform(CassetteCall(route: "/counter"))
        let second = try await session.perform(CassetteCall(route: "/counter"))

        #expect([first, second] == [Data(#"{"n":1}"#.utf8), Data(#"{"n":2}"#.utf8)])
        #expect(player.unusedEntries == ["#1 GET /other"])
        #expect(throws: Cassette.Failure.unusedEntries(["#1 GET /other"])) { try player.checkAllEntriesUsed() }
    }

    @Test func anUnmatchedRequestFailsWithTheClosestEntriesAndHowTheyDiffer() async throws {
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [
                Self.entry("GET", "https://api.test/users?page=2"),
                Self.entry("DELETE", "https://api.test/orders/9"),
            ])
        )
        let session = Self.session(player)

        let error = await #expect(throws: ApiError.self) {
            try await session.perform(CassetteCall(route: "/users", query: [URLQueryItem(name: "page", value: "3")]))
        }

        let expected = Cassette.Failure.noMatch(
            Cassette.Failure.NoMatch(
                request: "GET https://replay.test/users?page=3",
                closest: [
                    Cassette.Failure.Candidate(
                        index: 0,
                        summary: "#0 GET /users",
                        differences: ["query: recorded page=2, sent page=3"]
                    ),
                    Cassette.Failure.Candidate(
                        index: 1,
                        summary: "#1 DELETE /orders/9",
                        differences: [
                            "method: recorded DELETE, sent GET", "path: recorded /orders/9, sent /users",
                            "query: recorded no query, sent page=3",
                        ]
                    ),
                ]
            )
        )
        #expect(error?.underlyingError as? Cassette.Failure == expected)
        #expect(player.failures == [expected])
        #expect(
            expected.description.contains(
                "closest: #0 GET /users, which differs in\n    - query: recorded page=2, sent page=3"
            )
        )
    }

    @Test func inRecordedOrderARequestOutOfTurnFails() async throws {
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [
                Self.entry("GET", "https://api.test/first"), Self.entry("GET", "https://api.test/second"),
            ]),
            order: .ordered
        )
        let session = Self.session(player)

        let error = await #expect(throws: ApiError.self) { try await session.perform(CassetteCall(route: "/second")) }
        _ = try await session.perform(CassetteCall(route: "/first"))
        _ = try await session.perform(CassetteCall(route: "/second"))

        guard case .noMatch(let noMatch) = error?.underlyingError as? Cassette.Failure else {
            Issue.record("not a missing match: \(String(describing: error))")
            return
        }
        #expect(noMatch.closest.map(\.index) == [0, 1])
        #expect(noMatch.closest.last?.differences == ["not the next entry in recorded order"])
    }

    @Test func chosenHeaderFieldsMustMatchWhenAMatcherAsksForThem() async throws {
        var recorded = Self.entry("GET", "https://api.test/greeting", reply: #"{"text":"Hallo"}"#)
        recorded.request.headers = [Cassette.Archive.Field(name: "accept-language", value: "de")]
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [recorded]),
            matchers: Cassette.Matcher.defaults + [.headers(["Accept-Language"])]
        )
        let session = Self.session(player)

        await #expect(throws: ApiError.self) {
            try await session.perform(CassetteCall(route: "/greeting", fields: ["Accept-Language": "fr"]))
        }
        let german = try await session.perform(CassetteCall(route: "/greeting", fields: ["Accept-Language": "de"]))

        #expect(german == Data(#"{"text":"Hallo"}"#.utf8))
        #expect(player.failures.first?.description.contains("headers: the values of Accept-Language differ") == true)
    }

    @Test func aSecretSentForRealMatchesTheRedactedEntry() async throws {
        var recorded = Self.entry("GET", "https://api.test/me?access_token=%3Credacted%3E")
        recorded.request.headers = [Cassette.Archive.Field(name: "Authorization", value: "<redacted>")]
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [recorded]),
            matchers: Cassette.Matcher.defaults + [.headers(["Authorization"])]
        )

        _ = try await Self.session(player).perform(
            CassetteCall(
                route: "/me",
                query: [URLQueryItem(name: "access_token", value: "real-t0ken")],
                fields: ["Authorization": "Bearer real-t0ken"]
            )
        )

        #expect(player.unusedEntries.isEmpty)
    }

    @Test func aValueTheCassetteKeepsRedactedMatchesAnyValueInTheQueryJSONAndForm() async throws {
        let recorded = [
            Self.entry("GET", "https://api.test/cards?pin=%3Credacted%3E&kind=debit"),
            Self.entry("POST", "https://api.test/cards", body: #"{"card":{"pin":"<redacted>","kind":"debit"}}"#),
        ]
        // A player that does not know `pin` is secret: the placeholders alone make the requests match.
        let player = try Cassette.Player(archive: Cassette.Archive(entries: recorded))
        let session = Self.session(player)

        _ = try await session.perform(
            CassetteCall(
                route: "/cards",
                query: [URLQueryItem(name: "kind", value: "debit"), .init(name: "pin", value: "1234")]
            )
        )
        await #expect(throws: ApiError.self) {
            try await session.perform(
                CassetteCall(
                    verb: .post,
                    route: "/cards",
                    payload: .data(
                        Data(#"{"card":{"pin":"1234","kind":"credit"}}"#.utf8),
                        contentType: "application/json"
                    )
                )
            )
        }
        _ = try await session.perform(
            CassetteCall(
                verb: .post,
                route: "/cards",
                payload: .data(Data(#"{"card":{"pin":"1234","kind":"debit"}}"#.utf8), contentType: "application/json")
            )
        )

        #expect(player.unusedEntries.isEmpty)
    }

    @Test func aStreamedBodyReplaysInPiecesOfTheRecordedSizes() async throws {
        let events = "data: 1\n\ndata: 22\n\ndata: 333\n\n"
        let player = try Cassette.Player(
            archive: Cassette.Archive(entries: [
                Self.entry("GET", "https://api.test/events", reply: events, chunkSizes: [9, 10, 11])
            ])
        )
        let received = ReceivedPieces()
        let handler = TransportOptions.BodyHandler(accepts: { _ in true }, receive: { received.append($0) })

        let response = try await player.send(
            ApiRequest(url: URL(string: "https://replay.test/events")!),
            options: TransportOptions(bodyHandler: handler)
        )

        #expect(response.statusCode == 200)
        #expect(received.pieces.map(\.count) == [9, 10, 11])
        #expect(received.pieces.reduce(Data(), +) == Data(events.utf8))
    }

    @Test func anEntryKeptAsADigestMatchesByDigestButCannotReplayItsBody() async throws {
        var recorded = Self.entry("POST", "https://api.test/upload")
        recorded.request.postData = Cassette.Archive.PostData(
            mimeType: "text/plain",
            text: nil,
            sha256: "0d4e2ca9e9cbced7a7a5380eb29e1a3783b9b6d0db72de36a1051038e1c1fbc7"
        )
        recorded.response.content = Cassette.Archive.Content(
            size: 5000,
            mimeType: "text/plain",
            text: nil,
            sha256: "ab"
        )
        let player = try Cassette.Player(archive: Cassette.Archive(entries: [recorded]))
        let big = Data(repeating: UInt8(ascii: "x"), count: 300)

        let error = await #expect(throws: ApiError.self) {
            try await Self.session(player).perform(
                CassetteCall(verb: .post, route: "/upload", payload: .data(big, contentType: "text/plain"))
            )
        }

        #expect(error?.underlyingError as? Cassette.Failure == .bodyNotRecorded(index: 0))
    }

    @Test(arguments: [
        (#"{"method": "G ET", "url": "https://a.test/"}"#, "the request's method \"G ET\" is not an HTTP method"),
        (#"{"method": "GET", "url": "/relative"}"#, "the request's URL \"/relative\" is not an absolute URL"),
        (
            #"{"method": "GET", "url": "https://a.test/", "postData": {"mimeType": "x", "text": "%%", "_encoding": "base64"}}"#,
            "the body is marked base64 but is not"
        ),
    ])
    func anEntryThatCannotBeReplayedIsNamed(request: String, reason: String) throws {
        let text = """
            {"log": {"entries": [
              {"request": {"method": "GET", "url": "https://a.test/ok"}, "response": {"status": 200}},
              {"request": \(request), "response": {"status": 200, "content": {"text": "", "size": 0}}}
            ]}}
            """
        let archive = try JSONDecoder().decode(Cassette.Archive.self, from: Data(text.utf8))

        #expect(throws: Cassette.Failure.unusableEntry(index: 1, reason: reason)) {
            try Cassette.Player(archive: archive)
        }
    }
}
