import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/echo/raw?ms=…`, answered late so that a second call is made while the first is in flight; it
/// shares identical calls. Every request carries `X-Test-Tag`, so the fixture counts those that arrive.
/// It is `Hashable` and may have a key, so that equal values or equal keys alone would let calls share.
private struct SlowEcho: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var tag: String
    @Excluded var verb: HTTPMethod = .get
    @Excluded var variant: String? = nil
    @Excluded var bodyText: String? = nil
    @Excluded var key: String? = nil
    let ms: Int
    var hostProviderKey: String { "fixture" }
    var path: String { "/echo/raw" }
    var httpMethod: HTTPMethod { verb }
    var headers: Headers {
        var fields: Headers = ["X-Test-Tag": tag]
        fields["X-Variant"] = variant
        return fields
    }
    // With a body the parameters (`ms`) go to the query, whatever the HTTP method.
    var body: RequestBody? { bodyText.map { .data(Data($0.utf8), contentType: "text/plain") } }
    var options: CallOptions { CallOptions(callKey: key.map { CallKey($0) }, sharesIdenticalCalls: true) }
}

/// What `/echo/raw` saw.
private struct EchoedRequest: Decodable {
    let headers: [[String]]
    let port: Int
    let body_sha256: String

    init(_ data: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: data)
    }

    /// The value of the header field `name`.
    func header(_ name: String) -> String? {
        headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }
}

/// Two calls of a method that shares identical calls, the second made while the first is in flight.
enum SharedCallCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The environment switches between the calls: each must reach its own host.
    case environmentSwitch
    /// The method's header field differs; the call key is the same.
    case methodHeader
    /// A session middleware sets a token that changes between the calls.
    case middlewareField
    /// Two equal `POST`s without a call key.
    case postWithoutKey
    /// Two `POST`s with one call key and different bodies.
    case bodyDifferenceWithKey
    /// Two equal `GET`s: they share.
    case identicalGet
    /// Two equal `POST`s with one call key: they share.
    case identicalPostWithKey

    var testDescription: String { rawValue }

    /// Whether the second call joins the first's exchange.
    var shares: Bool { self == .identicalGet || self == .identicalPostWithKey }
}

extension SerialLoopback {
    /// Shared calls over real HTTP, on every transport: a call joins one in flight only when the
    /// request it would send is the same on the wire.
    @Suite(.timeLimit(.minutes(1)))
    struct SharedCallsLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        @Test(arguments: TestTransport.engines, SharedCallCase.allCases)
        func aCallJoinsOnlyARequestThatIsTheSameOnTheWire(
            transport: TestTransport,
            what: SharedCallCase
        )
            async throws
        {
            let tag = uniqueName("shared-\(what.rawValue)")
            let hosts = try EnvironmentsHostProvider(
                environments: ["one": ["fixture": server.baseURL], "two": ["fixture": server.baseURL2]],
                current: "one"
            )
            let token = LockedValue("first")
            let session = transport.makeSession(
                hostProvider: hosts,
                middlewares: [HeadersMiddleware { ["X-Token": token.current] }]
            )
            var first = SlowEcho(tag: tag, ms: 2_000)
            var second = first
            switch what {
            case .environmentSwitch, .middlewareField, .identicalGet:
                break
            case .methodHeader:
                first.key = "same"
                second = first
                (first.variant, second.variant) = ("a", "b")
            case .postWithoutKey:
                first.verb = .post
                first.bodyText = "same"
                second = first
            case .bodyDifferenceWithKey:
                (first.verb, first.key, first.bodyText) = (.post, "search", "a")
                second = first
                second.bodyText = "b"
            case .identicalPostWithKey:
                (first.verb, first.key, first.bodyText) = (.post, "search", "same")
                second = first
            }

            let firstCall = first
            let one = Task { try await session.perform(firstCall) }
            try await waitUntil { [server] in ((try? server.count(tag: tag)) ?? 0) >= 1 }
            switch what {
            case .environmentSwitch: try hosts.select("two")
            case .middlewareField: token.withLock { $0 = "second" }
            default: break
            }
            let late = try EchoedRequest(try await session.perform(second))
            let early = try EchoedRequest(try await one.value)

            #expect(try server.count(tag: tag) == (what.shares ? 1 : 2))
            switch what {
            case .environmentSwitch:
                #expect(early.port == server.port)
                #expect(late.port == server.port2)
            case .methodHeader:
                #expect([early.header("X-Variant"), late.header("X-Variant")] == ["a", "b"])
            case .middlewareField:
                #expect([early.header("X-Token"), late.header("X-Token")] == ["first", "second"])
            case .bodyDifferenceWithKey:
                #expect(early.body_sha256 != late.body_sha256)
            case .postWithoutKey, .identicalGet, .identicalPostWithKey:
                #expect(early.body_sha256 == late.body_sha256)
            }
            #expect([early.port, late.port].allSatisfy { $0 == server.port } || what == .environmentSwitch)
        }
    }
}
