import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// ``Cassette/Recorder``: what an entry holds, that no secret reaches it, and that a recording is the same
/// file each time.
@Suite(.timeLimit(.minutes(1)))
struct CassetteRecorderTests {
    /// Echoes what it received — the request's header fields and body — and sets a cookie.
    static let echo = ClosureServer { request, body in
        let headers = Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { $1 }
        let echoed: [String: Any] = [
            "headers": headers, "body": String(decoding: body, as: UTF8.self), "url": request.url.absoluteString,
        ]
        var reply = ClosureServer.Reply()
        reply.headers.add("sid=s3ss10n-v4lue; Path=/; HttpOnly", for: "Set-Cookie")
        reply.body = try! JSONSerialization.data(withJSONObject: echoed, options: .sortedKeys)
        return reply
    }

    static let secrets = Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"])

    func record(
        _ calls: [CassetteCall],
        settings: Cassette.Recorder.Settings = Cassette.Recorder.Settings(fixedDate: Date(timeIntervalSince1970: 0)),
        redaction: Cassette.Redaction = Cassette.Redaction(secrets: secrets)
    ) async throws -> (Cassette.Recorder, [Data]) {
        let recorder = Cassette.Recorder(wrapping: Self.echo, redaction: redaction, settings: settings)
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: recorder,
            policy: SessionPolicy(secrets: Self.secrets)
        )
        var bodies: [Data] = []
        for call in calls {
            bodies.append(try await session.perform(call))
        }
        return (recorder, bodies)
    }

    @Test func anEntryHoldsTheRequestAndResponseAsTheTransportSawThem() async throws {
        let call = CassetteCall(
            verb: .post,
            route: "/notes",
            query: [URLQueryItem(name: "draft", value: "1")],
            payload: .data(Data(#"{"title":"hi"}"#.utf8), contentType: "application/json"),
            fields: ["Accept": "application/json", "X-Trace": "a", "x-trace": "b"]
        )
        let (recorder, bodies) = try await record([call])

        let entry = try #require(recorder.archive.log.entries.first)
        #expect(entry.startedDateTime == "1970-01-01T00:00:00.000Z")
        #expect(entry.request.method == "POST")
        #expect(entry.request.url == "https://api.test/notes?draft=1")
        #expect(entry.request.queryString == [Cassette.Archive.Field(name: "draft", value: "1")])
        let traces = entry.request.headers.filter { $0.name.lowercased() == "x-trace" }.map(\.value)
        #expect(traces == ["a", "b"])
        #expect(entry.request.postData?.text == #"{"title":"hi"}"#)
        #expect(entry.request.postData?.mimeType == "application/json")
        #expect(entry.response.status == 200)
        #expect(entry.response.content.text.map { Data($0.utf8) } == bodies.first)
        #expect(entry.response.content.mimeType == "application/json")
        #expect(entry.response.headers.map(\.name) == ["Content-Type", "Set-Cookie"])
    }

    @Test func noSecretTheSessionKnowsReachesTheCassette() async throws {
        let calls = [
            CassetteCall(
                route: "/search",
                query: [
                    URLQueryItem(name: "api_key", value: "q-k3y-secret"), URLQueryItem(name: "pin", value: "9137"),
                    URLQueryItem(name: "q", value: "pens"),
                ],
                fields: [
                    "Authorization": "Bearer b3arer-t0ken", "Cookie": "sid=c00kie-v4lue",
                    "X-Api-Key": "c0nfigured-h3ader",
                ]
            ),
            CassetteCall(
                verb: .post,
                route: "/login",
                payload: .data(
                    Data("user=ada&password=f0rm-passw0rd".utf8),
                    contentType: "application/x-www-form-urlencoded"
                )
            ),
            CassetteCall(
                verb: .post,
                route: "/accounts",
                payload: .data(
                    Data(#"{"owner":{"profile":{"client_secret":"js0n-deep-secret"}},"cards":[{"pin":"4471"}]}"#.utf8),
                    contentType: "application/json"
                ),
                fields: ["X-Account": "4111-1111-1111-1111"]
            ),
        ]
        let redaction = Cassette.Redaction(secrets: Self.secrets).replacing("4111-1111-1111-1111", with: "<card>")
        let (recorder, _) = try await record(calls, redaction: redaction)

        let text = String(decoding: try recorder.archive.encoded(), as: UTF8.self)
        let secrets = [
            "q-k3y-secret", "9137", "b3arer-t0ken", "c00kie-v4lue", "c0nfigured-h3ader", "f0rm-passw0rd",
            "js0n-deep-secret", "4471", "s3ss10n-v4lue", "4111-1111-1111-1111",
        ]
        for secret in secrets {
            #expect(!text.contains(secret), "\(secret) reached the cassette")
        }
        let entries = recorder.archive.log.entries
        #expect(entries[0].request.url == "https://api.test/search?api_key=%3Credacted%3E&pin=%3Credacted%3E&q=pens")
        #expect(entries[0].request.headers.first { $0.name == "Authorization" }?.value == "<redacted>")
        #expect(entries[1].request.postData?.text == "user=ada&password=%3Credacted%3E")
        #expect(
            entries[2].request.postData?.text
                == #"{"cards":[{"pin":"<redacted>"}],"owner":{"profile":{"client_secret":"<redacted>"}}}"#
        )
        #expect(entries[2].request.headers.first { $0.name == "X-Account" }?.value == "<card>")
        #expect(entries[0].response.headers.first { $0.name == "Set-Cookie" }?.value == "<redacted>")
    }

    @Test func aRecordingOfTheSameCallsIsTheSameFile() async throws {
        let calls = [
            CassetteCall(
                route: "/a",
                query: [URLQueryItem(name: "z", value: "1"), URLQueryItem(name: "a", value: "2")]
            ),
            CassetteCall(verb: .put, route: "/b", payload: .data(Data([0, 1, 2, 255]))),
        ]
        let first = try await record(calls).0.archive.encoded()
        let second = try await record(calls).0.archive.encoded()

        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"log\" : {\n    \"creator\" : {"))
        // A binary body is kept in base64, marked as such.
        #expect(text.contains(#""_encoding" : "base64""#))
        #expect(text.contains(#""text" : "AAEC/w==""#))
    }

    @Test func aBodyOverTheLimitIsKeptAsItsDigestAndLength() async throws {
        let big = Data(repeating: UInt8(ascii: "x"), count: 300)
        let call = CassetteCall(verb: .post, route: "/upload", payload: .data(big, contentType: "text/plain"))
        let settings = Cassette.Recorder.Settings(bodyLimit: 100, fixedDate: Date(timeIntervalSince1970: 0))
        let (recorder, _) = try await record([call], settings: settings)

        let entry = try #require(recorder.archive.log.entries.first)
        #expect(entry.request.postData?.text == nil)
        #expect(entry.request.postData?.sha256 == "0d4e2ca9e9cbced7a7a5380eb29e1a3783b9b6d0db72de36a1051038e1c1fbc7")
        #expect(entry.request.bodySize == 300)
        #expect(entry.response.content.text == nil)
        #expect(entry.response.content.size > 300)
        #expect(entry.response.content.sha256?.count == 64)
    }

    @Test func aStreamedBodyReachesTheCallerAndTheEntryKeepsItsPieces() async throws {
        let server = ClosureServer { _, _ in
            ClosureServer.Reply(
                headers: ["Content-Type": "text/event-stream"],
                body: Data("data: 1\n\ndata: 22\n\ndata: 333\n\n".utf8),
                pieces: [9, 10, 11]
            )
        }
        let recorder = Cassette.Recorder(wrapping: server)
        let received = ReceivedPieces()
        let handler = TransportOptions.BodyHandler(accepts: { _ in true }, receive: { received.append($0) })
        let request = ApiRequest(url: URL(string: "https://api.test/events")!)

        let response = try await recorder.send(request, options: TransportOptions(bodyHandler: handler))

        #expect(response.data.isEmpty)
        #expect(received.pieces.map(\.count) == [9, 10, 11])
        let content = try #require(recorder.archive.log.entries.first?.response.content)
        #expect(content.text == "data: 1\n\ndata: 22\n\ndata: 333\n\n")
        #expect(content.chunkSizes == [9, 10, 11])
    }

    @Test func aStreamedRequestBodyIsSentWholeAndRecorded() async throws {
        let stream = ApiRequest.Stream(length: 10) {
            AsyncStream { continuation in
                continuation.yield(Data("hello".utf8))
                continuation.yield(Data("world".utf8))
                continuation.finish()
            }
        }
        let recorder = Cassette.Recorder(wrapping: Self.echo)
        let request = ApiRequest(method: .put, url: URL(string: "https://api.test/notes/1")!, body: .stream(stream))

        let response = try await recorder.send(request, options: TransportOptions())

        #expect(response.data.echoedJSON["body"] as? String == "helloworld")
        #expect(recorder.archive.log.entries.first?.request.postData?.text == "helloworld")
    }
}
