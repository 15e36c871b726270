import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// HAR files other tools exported — Chromium's and Firefox's developer tools (written here in the shapes
/// those tools produce) and mitmproxy (its own export, made by `Scripts/make-mitmproxy-har.sh` from traffic
/// curl sent) — load and replay against a service module.
@Suite
struct CassetteImportTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/HAR")

    /// The bytes `/avatar` answered with.
    static let avatar = Data((0..<1024).map { UInt8($0 % 256) })

    @Test(arguments: ["chrome-notes", "firefox-notes", "mitmproxy-notes"])
    func anExportReplaysAgainstAServiceModule(file: String) async throws {
        let player = try Cassette.Player(contentsOf: Self.folder.appendingPathComponent("\(file).har"))
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["notes": "https://notes.test"]),
            transport: player
        )

        let page = try await session.perform(Notes.List(limit: 2, sort: "title"))
        let note = try await session.perform(Notes.Get(id: 1))
        let created = try await session.perform(Notes.Create(title: "Eggs", done: false))
        // Another password than the one captured: both are redacted before they are compared.
        let login = try await session.perform(Notes.LogIn(user: "ada", password: "not-the-captured-one"))
        let avatar = try await session.perform(Notes.Avatar())
        let missing = await #expect(throws: ApiError.self) { try await session.perform(Notes.Get(id: 9)) }

        #expect(
            page.notes == [
                Notes.Note(id: 1, title: "Milk", done: false), Notes.Note(id: 2, title: "Bread", done: true),
            ]
        )
        #expect(note == Notes.Note(id: 1, title: "Milk", done: false))
        #expect(created == Notes.Note(id: 3, title: "Eggs", done: false))
        #expect(login == Notes.LoginResult(ok: true))
        #expect(avatar == Self.avatar)
        #expect(missing?.statusCode == 404)
        try player.checkAllEntriesUsed()
    }

    @Test func aReplayedResponseHasNoContentCodingNorPseudoHeaderAndALengthThatFits() async throws {
        let player = try Cassette.Player(contentsOf: Self.folder.appendingPathComponent("firefox-notes.har"))
        let url = URL(string: "https://notes.test/notes?limit=2&sort=title")!

        let response = try await player.send(ApiRequest(url: url), options: TransportOptions())

        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Content-Length"] == String(response.data.count))
        #expect(response.data.count == 85)
        #expect(response.head.url == url)
    }

    @Test func theSecretsOfAnExportNeverReachTheComparisonOrItsErrors() async throws {
        let player = try Cassette.Player(
            contentsOf: Self.folder.appendingPathComponent("chrome-notes.har"),
            matchers: Cassette.Matcher.defaults + [.headers(["Cookie"])]
        )
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["notes": "https://notes.test"]),
            transport: player
        )

        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Notes.LogIn(user: "grace", password: "sent-password"))
        }

        let text = String(describing: error?.underlyingError)
        #expect(text.contains("user=ada&password=%3Credacted%3E"))
        #expect(!text.contains("chrome-form-password"))
        #expect(!text.contains("sent-password"))
    }

    @Test func aFileThatIsNotAnArchiveFailsWithItsPathAndWhere() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-har-\(UUID().uuidString).har")
        try Data(#"{"log": {"entries": [{"request": {"url": "https://a.test/"}}]}}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        #expect(
            throws: Cassette.Failure.invalidArchive(
                path: url.path,
                reason: "no \"method\" at log.entries.0.request"
            )
        ) {
            try Cassette.Player(contentsOf: url)
        }
    }
}
