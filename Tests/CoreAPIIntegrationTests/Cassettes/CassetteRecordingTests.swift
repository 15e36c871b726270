import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A search whose query carries secrets, echoed back by the fixture.
private struct SecretSearch: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/search" }
    let api_key: String
    let pin: String
    let q: String
}

/// A JSON body with a secret deep inside, echoed back.
private struct SecretSignup: FixtureMethod {
    struct Profile: Encodable {
        let name: String
        let password: String
    }
    typealias Response = Echo
    var path: String { "/echo/signup" }
    var httpMethod: HTTPMethod { .post }
    let profile: Profile
}

/// A form body with a secret, echoed back.
private struct SecretLogin: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/login" }
    var httpMethod: HTTPMethod { .put }
    var parametersEncoding: any ParametersEncoding { QueryParametersEncoder() }
    let username: String
    let password: String
}

/// `/redirect?to=/json/user`: two hops.
private struct RedirectedUser: FixtureMethod {
    typealias Response = Data
    var path: String { "/redirect" }
    let to: String
}

/// Records calls against the loopback fixture server, then replays them with no server.
@Suite(.timeLimit(.minutes(1)))
struct CassetteRecordingTests {
    static let secrets = [
        "live-b3arer-t0ken", "live-c0nfig-key", "qu3ry-api-key", "7319", "js0n-passw0rd", "f0rm-passw0rd",
        "c00kie-v4lue",
    ]

    /// Makes the calls of the suite's module over `transport` and returns what each answered.
    static func calls(over transport: any Transport, baseURL: String) async throws -> [String] {
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["fixture": baseURL]),
            transport: transport,
            headers: ["Authorization": "Bearer live-b3arer-t0ken", "X-Api-Key": "live-c0nfig-key"],
            policy: SessionPolicy(secrets: Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"]))
        )
        let search = try await session.perform(SecretSearch(api_key: "qu3ry-api-key", pin: "7319", q: "pens"))
        let signup = try await session.perform(
            SecretSignup(profile: SecretSignup.Profile(name: "Ada", password: "js0n-passw0rd"))
        )
        let login = try await session.perform(SecretLogin(username: "ada", password: "f0rm-passw0rd"))
        let cookie = try await session.perform(SetCookie(name: "sid", value: "c00kie-v4lue", cookiePath: "/"))
        let user = try await session.perform(RedirectedUser(to: "/json/user"))
        return [
            "\(search.method) \(search.path) \(search.headers["authorization"] ?? "-")",
            "\(signup.method) \(signup.path)", "\(login.method) \(login.path)",
            String(decoding: cookie, as: UTF8.self), String(decoding: user, as: UTF8.self),
        ]
    }

    @Test func callsRecordedAgainstTheLoopbackServerReplayWithNoNetworkAndNoSecretInTheFile() async throws {
        let server = try FixtureServer.shared()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cassettes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let redaction = Cassette.Redaction(secrets: Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"]))
        let settings = Cassette.Recorder.Settings(fixedDate: Date(timeIntervalSince1970: 0))

        let recording = Cassette(named: "module", in: folder, mode: .record, redaction: redaction, settings: settings)
        let live = try await Self.calls(
            over: recording.makeTransport(live: URLSessionTransport()),
            baseURL: server.baseURL
        )
        try recording.finish()

        let text = try String(contentsOf: recording.url, encoding: .utf8)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) reached the cassette")
        }
        let archive = try Cassette.Archive(contentsOf: recording.url)
        // Each redirect hop is an entry of its own.
        #expect(archive.log.entries.map(\.response.status) == [200, 200, 200, 200, 302, 200])
        #expect(archive.log.entries.allSatisfy { $0.startedDateTime == "1970-01-01T00:00:00.000Z" })

        let replaying = Cassette(named: "module", in: folder, mode: .record, redaction: redaction)
        // A port nothing listens on: a call that reached the network would fail.
        let replayed = try await Self.calls(
            over: replaying.makeTransport(live: URLSessionTransport()),
            baseURL: "http://127.0.0.1:9"
        )
        try replaying.finish()

        #expect(live[0] == "GET /echo/search Bearer live-b3arer-t0ken")
        #expect(replayed[0] == "GET /echo/search <redacted>")
        #expect(replayed[1...] == live[1...])
    }
}
