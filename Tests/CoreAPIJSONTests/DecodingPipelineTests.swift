import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Get<Response: ApiResponse>: ApiMethod {
    @Excluded var path: String
    var hostProviderKey: String { "api" }
}

private struct Item: JSONApiResponse, Equatable {
    let id: Int
}

private struct UnderData: JSONApiResponse, Equatable {
    static var envelope: JSONEnvelope { "data" }
    let id: Int
}

private struct UnderResultItems: JSONApiResponse, Equatable {
    static var envelope: JSONEnvelope { .keyPath("result", "pageItems") }
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
    let itemCount: Int
}

private struct UnderAnyKey: JSONApiResponse, Equatable {
    static var envelope: JSONEnvelope { .singleKey }
    let id: Int
}

/// What an observer heard, in order.
private final class Reports: @unchecked Sendable {  // `lines` is read and written under `lock` only
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var all: [String] { lock.withLock { lines } }
}

private struct Feed: JSONApiResponse {
    let title: String
    let posts: LossyArray<Item>
}

private struct Profile: JSONApiResponse, Equatable {
    let id: Int
    let displayName: String
}

private struct LegacyProfile: JSONApiResponse, Equatable {
    let userId: Int
}

private struct StrictJSON: JSONApiResponse, Equatable {
    static var acceptableContentTypes: [String]? { ["application/json", "application/*+json"] }
    let id: Int
}

/// The mapping error's cause, or an issue recorded when the error is something else.
private func mappingCause(of error: ApiError?) -> (any Error)? {
    guard case .mapping(let failure) = error else {
        Issue.record("expected a mapping error, got \(String(describing: error))")
        return nil
    }
    return failure.cause
}

@Suite(.timeLimit(.minutes(1)))
struct DecodingPipelineTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    // MARK: Envelopes

    @Test func aModelDecodesFromUnderItsKey() async throws {
        transport.on("/x", reply: .json(#"{"data":{"id":7},"meta":{"page":1}}"#))
        #expect(try await session.perform(Get<UnderData>(path: "/x")) == UnderData(id: 7))
    }

    @Test func aKeyPathFollowsTheDecodersKeyStrategy() async throws {
        transport.on("/x", reply: .json(#"{"result":{"page_items":{"item_count":3}}}"#))
        #expect(try await session.perform(Get<UnderResultItems>(path: "/x")) == UnderResultItems(itemCount: 3))
    }

    @Test func aSingleKeyEnvelopeTakesWhateverTheKeyIsCalled() async throws {
        transport.on("/x", reply: .json(#"{"user":{"id":9}}"#))
        #expect(try await session.perform(Get<UnderAnyKey>(path: "/x")) == UnderAnyKey(id: 9))
    }

    @Test(arguments: [
        (#"{"meta":{}}"#, JSONEnvelope.Failure.missingKey(path: "data")),
        (#"[1,2]"#, .notAnObject(path: "")),
    ])
    func aMissingEnvelopeIsAMappingErrorWithItsPath(body: String, expected: JSONEnvelope.Failure) async throws {
        transport.on("/x", reply: .json(body))
        let error = await #expect(throws: ApiError.self) { try await session.perform(Get<UnderData>(path: "/x")) }
        #expect(mappingCause(of: error) as? JSONEnvelope.Failure == expected)
    }

    @Test(arguments: [
        (#"{"other":{}}"#, JSONEnvelope.Failure.missingKey(path: "result")),
        (#"{"result":{}}"#, .missingKey(path: "result.pageItems")),
        (#"{"result":[1]}"#, .notAnObject(path: "result")),
        (#""text""#, .notAnObject(path: "")),
    ])
    func aKeyPathNamesWhereItStopped(body: String, expected: JSONEnvelope.Failure) async throws {
        transport.on("/x", reply: .json(body))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<UnderResultItems>(path: "/x"))
        }
        #expect(mappingCause(of: error) as? JSONEnvelope.Failure == expected)
    }

    @Test(arguments: [
        (#"{"a":{"id":1},"b":{"id":2}}"#, JSONEnvelope.Failure.notASingleKey(keys: ["a", "b"])),
        ("{}", .notASingleKey(keys: [])),
    ])
    func anAmbiguousSingleKeyIsAnError(body: String, expected: JSONEnvelope.Failure) async throws {
        transport.on("/x", reply: .json(body))
        let error = await #expect(throws: ApiError.self) { try await session.perform(Get<UnderAnyKey>(path: "/x")) }
        #expect(mappingCause(of: error) as? JSONEnvelope.Failure == expected)
    }

    @Test func aBadModelUnderItsEnvelopeKeepsTheFullCodingPath() async throws {
        transport.on("/x", reply: .json(#"{"data":{"id":"seven"}}"#))
        let error = await #expect(throws: ApiError.self) { try await session.perform(Get<UnderData>(path: "/x")) }
        guard case .typeMismatch(_, let context) = mappingCause(of: error) as? DecodingError else {
            Issue.record("expected a type mismatch")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["data", "id"])
    }

    @Test(arguments: [
        (JSONEnvelope.none, "none"), ("data.items", "data.items"), (.singleKey, "single key"),
        (.keyPath("a", "b"), "a.b"), ("", "none"),
    ])
    func envelopesDescribeThemselves(envelope: JSONEnvelope, description: String) {
        #expect(envelope.description == description)
    }

    // MARK: Lossy arrays

    @Test func aLossyListKeepsWhatDecodesAndReportsTheRest() async throws {
        transport.on("/x", reply: .json(#"[{"id":1},{"id":"two"},{},{"id":4},null]"#))
        let items = try await session.perform(Get<LossyArray<Item>>(path: "/x"))
        #expect(Array(items) == [Item(id: 1), Item(id: 4)])
        #expect(items.dropped.map(\.index) == [1, 2, 4])
        #expect(items.dropped.allSatisfy { $0.error is DecodingError })
        #expect(items.dropped[0].description.hasPrefix("element 1: "))
    }

    @Test func aNestedLossyListKeepsTheRestOfTheModel() async throws {
        transport.on("/x", reply: .json(#"{"title":"news","posts":[{"id":"x"},{"id":2}]}"#))
        let feed = try await session.perform(Get<Feed>(path: "/x"))
        #expect(feed.title == "news")
        #expect(Array(feed.posts) == [Item(id: 2)])
        #expect(feed.posts.dropped.map(\.index) == [0])
    }

    /// Each array that dropped anything is reported once to the decoder's observer, with its place in
    /// the body; an array that dropped nothing is not reported.
    @Test(arguments: [
        (#"[{"id":1},{"id":"two"},{},{"id":4}]"#, [".: 4 [1, 2]"]),
        (#"{"title":"a","posts":[{"id":"x"},{"id":2}]}"#, ["posts: 2 [0]"]),
        (#"{"title":"a","posts":[{"id":1}]}"#, []),
        (#"[]"#, []),
    ])
    func anObserverHearsOfEveryDroppedElement(body: String, expected: [String]) throws {
        let reports = Reports()
        let decoder = JSONDecoder()
        decoder.userInfo[LossyArrayObserver.userInfoKey] = LossyArrayObserver { report in
            #expect(ObjectIdentifier(report.elementType) == ObjectIdentifier(Item.self))
            #expect(report.dropped.allSatisfy { $0.error is DecodingError })
            reports.append("\(report.path): \(report.count) \(report.dropped.map(\.index))")
        }
        if body.hasPrefix("[") {
            _ = try decoder.decode(LossyArray<Item>.self, from: Data(body.utf8))
        } else {
            _ = try decoder.decode(Feed.self, from: Data(body.utf8))
        }
        #expect(reports.all == expected)
    }

    @Test func nestedListsAreReportedWithTheirPath() throws {
        let reports = Reports()
        let decoder = JSONDecoder()
        decoder.userInfo[LossyArrayObserver.userInfoKey] = LossyArrayObserver { report in
            reports.append(report.path)
        }
        let body = #"[{"title":"a","posts":[{"id":1}]},{"title":"b","posts":[{"id":2},{"id":null}]},{"title":3}]"#
        let feeds = try decoder.decode(LossyArray<Feed>.self, from: Data(body.utf8))
        #expect(feeds.count == 2)
        #expect(reports.all == ["1.posts", "."])
    }

    @Test(arguments: ["[]", "[null]", #"[{"id":1}]"#])
    func edgeListsDecode(body: String) throws {
        let list = try JSONDecoder().decode(LossyArray<Item>.self, from: Data(body.utf8))
        #expect(list.count + list.dropped.count == (body == "[]" ? 0 : 1))
    }

    @Test func aBodyThatIsNoListIsStillAnError() async throws {
        transport.on("/x", reply: .json(#"{"id":1}"#))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<LossyArray<Item>>(path: "/x"))
        }
        #expect(mappingCause(of: error) is DecodingError)
    }

    @Test func aLossyListUsesTheElementsDecoder() throws {
        let snake = try LossyArray<UnderResultItems>.decoder.decode(
            [UnderResultItems].self,
            from: Data(#"[{"item_count":1}]"#.utf8)
        )
        #expect(snake == [UnderResultItems(itemCount: 1)])
    }

    // MARK: Fallback

    @Test func theExpectedModelWinsWhenItDecodes() async throws {
        transport.on("/x", reply: .json(#"{"id":1,"displayName":"Ada"}"#))
        let outcome = try await session.perform(Get<OrFallback<Profile, LegacyProfile>>(path: "/x"))
        #expect(outcome.value == Profile(id: 1, displayName: "Ada"))
        #expect(outcome.fallback == nil)
    }

    @Test func theFallbackIsATypedOutcomeWithTheReason() async throws {
        transport.on("/x", reply: .json(#"{"userId":5}"#))
        let outcome = try await session.perform(Get<OrFallback<Profile, LegacyProfile>>(path: "/x"))
        guard case .fallback(let legacy, let reason) = outcome else {
            Issue.record("expected the fallback, got \(outcome)")
            return
        }
        #expect(legacy == LegacyProfile(userId: 5))
        #expect(reason is DecodingError)
        #expect(outcome.value == nil)
    }

    @Test func neitherModelIsTheExpectedModelsMappingError() async throws {
        transport.on("/x", reply: .json(#"{"unrelated":true}"#))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<OrFallback<Profile, LegacyProfile>>(path: "/x"))
        }
        #expect(mappingCause(of: error) is DecodingError)
    }

    @Test func theStatusIsCheckedBeforeEitherModel() async throws {
        transport.on("/x", reply: .json(#"{"userId":5}"#, statusCode: 500))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Get<OrFallback<Profile, LegacyProfile>>(path: "/x"))
        }
        #expect(error?.statusCode == 500)
        #expect(error?.category == .status)
    }

    // MARK: Content type

    @Test(arguments: [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
        ("application/problem+json", true), ("text/html", false), ("application/xml", false), (nil, false),
        ("json", false),
    ])
    func theMediaTypeIsChecked(contentType: String?, accepted: Bool) async throws {
        var headers = Headers()
        if let contentType { headers["Content-Type"] = contentType }
        transport.on("/x", reply: .data(Data(#"{"id":1}"#.utf8), headers: headers))
        let result = await Result(awaiting: { try await session.perform(Get<StrictJSON>(path: "/x")) })
        if accepted {
            #expect(try result.get() == StrictJSON(id: 1))
        } else {
            #expect(throws: ApiError.self) { try result.get() }
            guard case .failure(ApiError.unacceptableContentType(let failure)) = result else {
                Issue.record("expected unacceptableContentType, got \(result)")
                return
            }
            #expect(failure.contentType == contentType)
            #expect(failure.acceptable == ["application/json", "application/*+json"])
            #expect(failure.body == Data(#"{"id":1}"#.utf8))
            #expect(failure.statusCode == 200)
        }
    }

    @Test func anEmptyBodyIsNotChecked() throws {
        let response = ResponseHead(
            status: HTTPStatus(200),
            headers: Headers(["Content-Type": "text/html"]),
            url: URL(string: "https://api.test")!
        )
        let result = StrictJSON.standardProcess(response: response, data: Data(), error: nil)
        #expect(throws: ApiError.self) { try result.get() }
        guard case .failure(ApiError.mapping) = result else {
            Issue.record("an empty body goes to the parser, got \(result)")
            return
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    fileprivate init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
