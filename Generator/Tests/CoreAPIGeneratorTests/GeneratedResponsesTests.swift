import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// Responses of the module generated from Features.yaml: status ranges, `default` responses and response
/// headers.
@Suite("Generated module: responses")
struct GeneratedResponsesTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"]) }

    typealias Expected = any Error & Equatable
    static let problem = #"{"title":"no"}"#
    static let outage = #"{"retryAfter":30}"#

    @Test(
        "A status listed exactly takes its own body; any other of a 4XX or 5XX range takes the range's",
        arguments: [
            (404, #"{"path":"a"}"#, FeaturesStatusError(status: 404, body: Missing(path: "a")) as Expected),
            (400, problem, FeaturesStatusError(status: 400, body: Problem(title: "no"))),
            (429, problem, FeaturesStatusError(status: 429, body: Problem(title: "no"))),
            (503, outage, FeaturesStatusError(status: 503, body: Outage(retryAfter: 30))),
        ]
    )
    func rangeErrors(status: Int, body: String, expected: Expected) async throws {
        transport.on(.get, "/v1/files/*", reply: .json(body, statusCode: status))
        do {
            _ = try await session.perform(GetFile(name: "a"))
            Issue.record("status \(status) succeeded")
        } catch {
            #expect(Self.same(error, expected), "\(error)")
        }
    }

    static func same(_ error: any Error, _ expected: Expected) -> Bool {
        func check<E: Error & Equatable>(_ expected: E) -> Bool { (error as? E) == expected }
        return check(expected)
    }

    @Test("A range's body that does not decode, and a status outside every range, stay generic status errors")
    func undecodable() async throws {
        for (status, body) in [(503, Self.problem), (302, Self.problem), (418, "not json")] {
            transport.on(.get, "/v1/files/*", reply: .json(body, statusCode: status))
            await #expect {
                try await session.perform(GetFile(name: "a"))
            } throws: { error in
                guard case .unacceptableStatus(let failure) = error as? ApiError else { return false }
                return failure.statusCode == status
            }
        }
    }

    @Test("A 401 in a range is still ApiError.unauthorized, with the range's body as the service's error")
    func unauthorized() async throws {
        transport.on(.get, "/v1/files/*", reply: .json(Self.problem, statusCode: 401))
        await #expect {
            try await session.perform(GetFile(name: "a"))
        } throws: { error in
            guard case .unauthorized(let failure) = error as? ApiError else { return false }
            let expected = FeaturesStatusError(status: 401, body: Problem(title: "no"))
            return failure.serviceError as? FeaturesStatusError == expected
        }
    }

    @Test("A default response beside a success one is the typed error of every other status", arguments: [400, 500])
    func defaultError(status: Int) async throws {
        transport.on(.post, "/v1/orders", reply: .json(Self.problem, statusCode: status))
        let order = Order(id: UUID(), status: .placed, placedAt: "x", items: [])
        await #expect(throws: FeaturesStatusError(status: status, body: Problem(title: "no"))) {
            try await session.perform(CreateOrder(dryRun: nil, requestBody: order))
        }
    }

    @Test("A default response that is the only one describes the success")
    func defaultSuccess() async throws {
        transport.on(.delete, "/v1/settings", reply: .json(#"{"name":"fresh"}"#))
        #expect(try await session.perform(ResetSettings()) == Settings(name: "fresh"))
    }

    @Test("A 2XX response accepts any success status", arguments: [200, 201, 204])
    func successRange(status: Int) async throws {
        transport.on(.put, "/v1/files/*", reply: .status(status))
        _ = try await session.perform(PutFile(name: "a", overwrite: nil, requestBody: "x"))
        #expect(transport.requests.count == 1)
    }

    @Test("The header fields the document lists for the success response are typed properties of the output")
    func responseHeaders() async throws {
        var headers = Headers()
        headers.set("\"v2\"", for: "ETag")
        headers.set("7", for: "x-rate-limit-remaining")
        headers.set("true", for: "X-Cached")
        headers.set("kept", for: "X-Other")
        transport.on(.get, "/v1/files/*", reply: .text("hello", headers: headers))
        let file = try await session.perform(GetFile(name: "a"))
        #expect(file.value == "hello")
        #expect(file.eTag == "\"v2\"")
        #expect(file.xRateLimitRemaining == 7)
        #expect(file.xCached == true)
        #expect(file.response.status == 200)
        #expect(file.response.headers["X-Other"] == "kept")
        #expect(file.count == 5)
    }

    @Test("An absent header is nil, and so is one whose text is not of its type")
    func absentHeaders() async throws {
        var headers = Headers()
        headers.set("many", for: "X-Rate-Limit-Remaining")
        transport.on(.get, "/v1/files/*", reply: .text("x", headers: headers))
        let file = try await session.perform(GetFile(name: "a"))
        #expect(file.eTag == nil)
        #expect(file.xRateLimitRemaining == nil)
        #expect(file.xCached == nil)
    }

    @Test("An output of a JSON value encodes as the value, and reads the value's members")
    func outputOfModel() async throws {
        var headers = Headers()
        headers.set("12", for: "X-Total")
        transport.on(.get, "/v1/stats", reply: .json(#"{"count":4}"#, headers: headers))
        let stats = try await session.perform(GetStats())
        #expect(stats.xTotal == 12)
        #expect(stats.count == 4)
        #expect(String(decoding: try JSONEncoder().encode(stats), as: UTF8.self) == #"{"count":4}"#)
    }
}
