import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct ListItems: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "api" }
    var path: String { "/items" }
    var options: CallOptions { CallOptions(acceptableStatusCodes: [200, 203]) }
}

private struct PingWithMetadata: ApiMethod {
    typealias Response = WithMetadata<EmptyResponse>
    var hostProviderKey: String { "api" }
    var path: String { "/ping" }
}

@Suite(.timeLimit(.minutes(1)))
struct WithMetadataTests {
    let transport = StubTransport()

    private var session: ApiSession {
        transport.makeSession(hosts: ["api": "https://api.test"])
    }

    @Test func theValueComesWithStatusHeadersAndURL() async throws {
        transport.on(
            "/items",
            reply: .data(
                Data("[1,2]".utf8),
                statusCode: 203,
                headers: ["ETag": #""v7""#, "Link": #"</items?page=2>; rel="next""#]
            )
        )
        let page = try await session.perform(ListItems())
        #expect(page.value == Data("[1,2]".utf8))
        #expect(page.count == 5)  // a member of the value, reached directly
        #expect(page.status == .nonAuthoritativeInformation)
        #expect(page.headers["etag"] == #""v7""#)
        #expect(page.headers["Link"] == #"</items?page=2>; rel="next""#)
        #expect(page.url?.absoluteString == "https://api.test/items")
    }

    @Test func theWrappedTypesPolicyStillDecides() async throws {
        transport.on("/items", reply: .status(404))
        let error = await #expect(throws: ApiError.self) { try await session.perform(ListItems()) }
        #expect(error?.statusCode == 404)
        transport.on("/ping", reply: .status(204))
        let ping = try await session.perform(PingWithMetadata())
        #expect(ping.status == .noContent)
        #expect(ping.value.statusCode == 204)
    }

    @Test func aCallThroughTheSessionIsTimed() async throws {
        transport.on("/ping", reply: .status(204))
        let before = Date()
        let ping = try await session.perform(PingWithMetadata())
        let timing = try #require(ping.timing)
        let exchange = try #require(timing.exchange)
        #expect(timing.total >= exchange)
        #expect(timing.start >= before.addingTimeInterval(-0.001) && timing.start <= Date())
    }

    /// A middleware that answers itself leaves no exchange to time; the call is still timed.
    @Test func aMockedAnswerHasNoExchange() async throws {
        let mock = MockMiddleware()
        mock.on(PingWithMetadata.self, reply: .status(204))
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: transport,
            middlewares: [mock]
        )
        let ping = try await session.perform(PingWithMetadata())
        #expect(ping.status == .noContent)
        let timing = try #require(ping.timing)
        #expect(timing.exchange == nil)
        #expect(timing.total >= .zero)
        #expect(transport.requests.isEmpty)
    }

    @Test func timingIsNotPartOfEquality() {
        let plain = WithMetadata(value: Data("a".utf8), status: .ok, headers: [:], url: nil)
        var timed = plain
        timed.timing = ResponseTiming(start: Date(), total: .milliseconds(5), exchange: .milliseconds(4))
        #expect(plain == timed)
        #expect(plain.hashValue == timed.hashValue)
    }

    @Test func parsingAddsTheMetadataOfTheResponse() throws {
        let response = ResponseHead(
            status: 201,
            headers: ["Location": "/x/1"],
            url: try #require(URL(string: "https://api.test/x"))
        )
        let made = WithMetadata<Data>.makeResponse(response: response, data: Data("a".utf8))
        #expect(
            made
                == WithMetadata(
                    value: Data("a".utf8),
                    status: .created,
                    headers: ["Location": "/x/1"],
                    url: response.url
                )
        )
        let decoded = try WithMetadata<Data>.decodeResponse(response: response, data: Data())
        #expect(decoded.status == .created)
        #expect(decoded.value.isEmpty)
        #expect(decoded.timing == nil)  // made outside a call: nothing measured it
    }
}
