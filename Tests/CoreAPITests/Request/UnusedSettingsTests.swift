import CoreAPI
import CoreAPITesting
import Foundation
import Testing

// Settings written as properties of the method, as a newcomer writes them: each compiles, and none is read.

private struct TimeoutAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var timeout: TimeInterval? { 1 }
}

private struct DeadlineAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var deadline: Duration { .seconds(30) }
}

private struct StatusCodesAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var acceptableStatusCodes: Set<Int> { [200, 404] }
}

private struct StatusErrorsAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var statusErrors: CallOptions.StatusErrors { [.notFound: CocoaError(.fileNoSuchFile)] }
}

private struct MiddlewaresAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var middlewares: [any Middleware] { [MinimumDurationMiddleware(minimum: .milliseconds(800))] }
}

private struct CachePolicyAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var cachePolicy: HTTPCacheMiddleware.Policy { .revalidate }
}

private struct LoggingAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var isLoggingEnabled: Bool { false }
}

private struct MethodAsProperty: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var method: HTTPMethod { .post }
}

private struct HeadersAsDictionary: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var headers: [String: String] { ["X-Client": "ios"] }
}

/// A family that gives all its methods a timeout the wrong way: every method of it fails.
private protocol SlowFamily: ApiMethod {}

extension SlowFamily {
    var hostProviderKey: String { "api" }
    var timeout: Int { 5 }
}

private struct FamilyMember: SlowFamily {
    typealias Response = Data
}

/// API parameters that really carry these names: stored properties, sent as any other.
private struct LongPoll: ApiMethod {
    typealias Response = Data
    let timeout: Int
    let method: String
    let deadline: String
    var hostProviderKey: String { "api" }
    var path: String { "/updates" }
}

/// A stored deadline behind `@Excluded` that the method feeds into its options: not sent, and read.
private struct ExcludedDeadline: ApiMethod {
    typealias Response = Data
    @Excluded var deadline: Duration?
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var options: CallOptions { CallOptions(deadline: deadline) }
}

/// The settings written where they belong, with headers as `Headers`.
private struct Settled: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/report" }
    var httpMethod: HTTPMethod { .put }
    var headers: Headers { ["X-Client": "ios"] }
    var options: CallOptions { CallOptions(timeout: .seconds(1), acceptableStatusCodes: [200, 404]) }
}

@Suite(.timeLimit(.minutes(1)))
struct UnusedSettingsTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    private func failure(of method: some ApiMethod) async -> ApiError.InvalidRequestReason? {
        do {
            _ = try await session.perform(method)
            return nil
        } catch let ApiError.invalidRequest(reason) {
            return reason
        } catch {
            return nil
        }
    }

    private func unused(_ reason: ApiError.InvalidRequestReason?) -> (property: String, write: String)? {
        guard case .unusedSetting(let property, let write) = reason else { return nil }
        return (property, write)
    }

    @Test(arguments: [
        ("timeout", "CallOptions(timeout:"), ("deadline", "CallOptions(deadline:"),
        ("acceptableStatusCodes", "CallOptions(acceptableStatusCodes:"),
        ("statusErrors", "CallOptions(statusErrors:"), ("middlewares", "CallOptions(middlewares:"),
        ("cachePolicy", "CallOptions(cachePolicy:"), ("isLoggingEnabled", "CallOptions(isLoggingEnabled:"),
        ("method", "var httpMethod: HTTPMethod"), ("headers", "var headers: Headers"),
    ])
    func aSettingAMethodComputesUnderANameNoCallReadsFailsBeforeSending(property: String, write: String) async {
        transport.on("/", reply: .text("ok"))
        transport.on("/report", reply: .text("ok"))
        let methods: [String: any ApiMethod] = [
            "timeout": TimeoutAsProperty(), "deadline": DeadlineAsProperty(),
            "acceptableStatusCodes": StatusCodesAsProperty(), "statusErrors": StatusErrorsAsProperty(),
            "middlewares": MiddlewaresAsProperty(), "cachePolicy": CachePolicyAsProperty(),
            "isLoggingEnabled": LoggingAsProperty(), "method": MethodAsProperty(),
            "headers": HeadersAsDictionary(),
        ]
        let reason = await failure(of: methods[property]!)
        #expect(unused(reason)?.property == property)
        #expect(unused(reason)?.write.contains(write) == true)
        #expect(transport.requests.isEmpty)
        let description = ApiError.invalidRequest(reason!).description
        #expect(description.contains("\"\(property)\""))
        #expect(description.contains(write))
    }

    @Test func aFamilyExtensionThatComputesASettingFailsEveryMember() async {
        let reason = await failure(of: FamilyMember())
        #expect(unused(reason)?.property == "timeout")
        #expect(transport.requests.isEmpty)
    }

    @Test func storedPropertiesOfThoseNamesAreParameters() async throws {
        transport.on("/updates", reply: .text("ok"))
        _ = try await session.perform(LongPoll(timeout: 30, method: "card", deadline: "soon"))
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.test/updates?deadline=soon&method=card&timeout=30"
            ]
        )
    }

    @Test func aStoredSettingBehindAPropertyWrapperIsTheMethodsOwn() async throws {
        transport.on("/report", reply: .text("ok"))
        _ = try await session.perform(ExcludedDeadline(deadline: .seconds(5)))
        #expect(transport.requests.map(\.url.absoluteString) == ["https://api.test/report"])
    }

    @Test func settingsWhereTheyBelongTakeEffect() async throws {
        transport.on(.put, "/report", reply: .text("missing", statusCode: 404))
        _ = try await session.perform(Settled())
        let request = try #require(transport.requests.first)
        #expect(request.method == .put)
        #expect(request.headers["X-Client"] == "ios")
    }
}
