import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Any status is a success, so a test reads every reply's status, headers and body.
private struct Fetch: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "api" }
    var options: CallOptions { CallOptions(acceptableStatusCodes: CallOptions.AcceptableStatusCodes([100..<600])) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/reply")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// ``CannedResponse``: one reply comes to the same status, header fields, body bytes or typed error
/// through each of its users — the mock middleware, the stub transport and the stub server.
@Suite(.timeLimit(.minutes(1)))
struct CannedResponseTests {
    /// Where a canned reply answers a call: in the middleware chain, at the transport, or through URLSession.
    enum Answerer: String, CaseIterable, CustomTestStringConvertible {
        case mockMiddleware
        case stubTransport
        case stubServer

        var testDescription: String { rawValue }

        /// A session whose every call `reply` answers; `server` keeps a stub server alive while it is used.
        struct Stand {
            let session: ApiSession
            let server: StubServer?
        }

        func stand(answering reply: CannedResponse) -> Stand {
            let hosts = ["api": "https://api.test"]
            switch self {
            case .mockMiddleware:
                let mock = MockMiddleware()
                mock.on(.get, "/reply", reply: reply)
                // Below the mock, a transport no call reaches: one that did would get a 599.
                let session = StubTransport(fallback: .status(599)).makeSession(hosts: hosts, middlewares: [mock])
                return Stand(session: session, server: nil)
            case .stubTransport:
                let transport = StubTransport()
                transport.on(.get, "/reply", reply: reply)
                return Stand(session: transport.makeSession(hosts: hosts), server: nil)
            case .stubServer:
                let server = StubServer()
                server.on(.get, "/reply", reply: reply)
                return Stand(session: server.makeSession(hosts: hosts), server: server)
            }
        }
    }

    struct Expected: Sendable {
        let status: Int
        let headers: [(String, String)]
        let body: Data
    }

    /// `value` encoded as a JSON reply.
    static func encoded(_ value: [String: Int], statusCode: Int) -> CannedResponse {
        do {
            return try .json(encoding: value, statusCode: statusCode)
        } catch {
            return .failure(.unknown(.init(error)))
        }
    }

    static let replies: [(CannedResponse, Expected)] = [
        (
            .data(Data([0x00, 0x01, 0xFE, 0xFF]), statusCode: 201, headers: ["X-Id": "7"]),
            Expected(status: 201, headers: [("X-Id", "7")], body: Data([0x00, 0x01, 0xFE, 0xFF]))
        ),
        (
            .json(#"{"id": 42}"#, headers: ["ETag": "\"v1\""]),
            Expected(
                status: 200,
                headers: [("Content-Type", "application/json"), ("ETag", "\"v1\"")],
                body: Data(#"{"id": 42}"#.utf8)
            )
        ),
        (
            encoded(["zeta": 1, "alpha": 2], statusCode: 202),
            Expected(
                status: 202,
                headers: [("Content-Type", "application/json")],
                body: Data(#"{"alpha":2,"zeta":1}"#.utf8)
            )
        ),
        (
            .text("héllo", statusCode: 203),
            Expected(
                status: 203,
                headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Data("héllo".utf8)
            )
        ),
        (
            .text("a,b", headers: ["Content-Type": "text/csv"]),
            Expected(status: 200, headers: [("Content-Type", "text/csv")], body: Data("a,b".utf8))
        ),
        (
            .status(404, headers: ["X-Reason": "gone"]),
            Expected(status: 404, headers: [("X-Reason", "gone")], body: Data())
        ),
    ]

    @Test(arguments: Answerer.allCases, replies)
    func aReplyArrivesWithItsStatusHeadersAndBody(answerer: Answerer, reply: (CannedResponse, Expected)) async throws {
        let (canned, expected) = reply
        let stand = answerer.stand(answering: canned)
        let response = try await stand.session.perform(Fetch())
        #expect(response.status.code == expected.status)
        for (name, value) in expected.headers {
            #expect(response.headers[name] == value, "\(name)")
        }
        #expect(response.value == expected.body)
        _ = stand.server
    }

    /// A failure arrives as the session reports it from URLSession: a transport failure with the `URLError`
    /// code of its kind (or the kind of its code) and that `URLError` as its cause.
    static let failures: [(reply: ApiError, reported: ApiError, code: URLError.Code?)] = [
        (.transport(.init(kind: .offline)), .transport(.init(kind: .offline, code: -1009)), .notConnectedToInternet),
        (
            .transport(.init(kind: .cannotConnect)), .transport(.init(kind: .cannotConnect, code: -1004)),
            .cannotConnectToHost
        ),
        (.transport(.init(kind: .dns)), .transport(.init(kind: .dns, code: -1003)), .cannotFindHost),
        (.transport(.init(kind: .tls)), .transport(.init(kind: .tls, code: -1200)), .secureConnectionFailed),
        (
            .transport(.init(kind: .connectionLost)), .transport(.init(kind: .connectionLost, code: -1005)),
            .networkConnectionLost
        ),
        (.transport(.init(kind: .badResponse)), .transport(.init(kind: .badResponse, code: -1011)), .badServerResponse),
        (.transport(.init(kind: .other)), .transport(.init(kind: .other, code: -1)), .unknown),
        (
            .transport(.init(kind: .other, code: -1009)), .transport(.init(kind: .offline, code: -1009)),
            .notConnectedToInternet
        ),
        (.timeout, .timeout, nil),
        (.cancelled, .cancelled, nil),
        (.responseTooLarge(limit: 5), .responseTooLarge(limit: 5), nil),
    ]

    @Test(arguments: Answerer.allCases, failures)
    func aFailureArrivesAsTheSessionReportsIt(
        answerer: Answerer,
        failure: (reply: ApiError, reported: ApiError, code: URLError.Code?)
    ) async throws {
        let stand = answerer.stand(answering: .failure(failure.reply))
        let error = await #expect(throws: ApiError.self) { try await stand.session.perform(Fetch()) }
        #expect(error == failure.reported)
        if let code = failure.code {
            #expect((error?.underlyingError as? URLError)?.code == code)
        }
        _ = stand.server
    }

    @Test(arguments: Answerer.allCases)
    func aFileIsReadWhenTheReplyIsMade(answerer: Answerer) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("canned-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"version":1}"#.utf8).write(to: file)
        let stand = answerer.stand(answering: .file(file, statusCode: 206, headers: ["X-Id": "7"]))
        try Data(#"{"version":2}"#.utf8).write(to: file)
        let response = try await stand.session.perform(Fetch())
        #expect(response.status.code == 206)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["X-Id"] == "7")
        #expect(response.value == Data(#"{"version":2}"#.utf8))
        _ = stand.server
    }

    @Test(arguments: Answerer.allCases)
    func anUnreadableFileFailsTheCall(answerer: Answerer) async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json")
        let stand = answerer.stand(answering: .file(missing))
        let error = await #expect(throws: ApiError.self) { try await stand.session.perform(Fetch()) }
        #expect(error == .invalidRequest(.unreadableFile(path: missing.path)))
        _ = stand.server
    }

    @Test(arguments: Answerer.allCases)
    func aDelayedReplyArrivesAfterItsDelay(answerer: Answerer) async throws {
        let stand = answerer.stand(answering: CannedResponse.text("late").delayed(by: .milliseconds(300)))
        let start = ContinuousClock.now
        let response = try await stand.session.perform(Fetch())
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(response.value == Data("late".utf8))
        _ = stand.server
    }

    @Test(arguments: Answerer.allCases)
    func cancellingTheCallEndsTheDelay(answerer: Answerer) async throws {
        let stand = answerer.stand(answering: CannedResponse.text("late").delayed(by: .seconds(30)))
        let session = stand.session
        let call = Task { try await session.perform(Fetch()) }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(throws: ApiError.cancelled) { try result.get() }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s delay
        _ = stand.server
    }
}
