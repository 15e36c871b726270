import CoreAPI
import CoreAPITesting
import Foundation
import Testing

private enum Failure: Error, Equatable { case method, call }

private struct Tagged: Middleware {
    let name: String
    let log: LockedValue<[String]>
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        log.withLock { $0.append(name) }
        return try await next(request)
    }
}

private struct Configured: ApiMethod {
    typealias Response = Data
    let log: LockedValue<[String]>
    var hostProviderKey: String { "api" }
    var path: String { "/x" }
    var options: CallOptions {
        CallOptions(
            timeout: .seconds(30),
            acceptableStatusCodes: [200, 404],
            statusErrors: [.conflict: Failure.method, .gone: Failure.method],
            statusMessages: [.badRequest: "method"],
            isLoggingEnabled: false,
            middlewares: [Tagged(name: "method", log: log)]
        )
    }
    func encode(to encoder: any Encoder) throws {}
}

@Suite(.timeLimit(.minutes(1)))
struct CallOptionsTests {
    @Test func aSettingLeftOutKeepsTheLevelAbove() {
        let method = CallOptions(
            timeout: .seconds(5),
            deadline: .seconds(50),
            maximumResponseSize: 10,
            acceptableStatusCodes: [200, 404],
            isLoggingEnabled: false,
            callKey: CallKey("m"),
            sharesIdenticalCalls: true,
            cachePolicy: .storedOnly
        )
        let untouched = method.merging(CallOptions())
        #expect(untouched.timeout == .seconds(5))
        #expect(untouched.deadline == .seconds(50))
        #expect(untouched.maximumResponseSize == 10)
        #expect(untouched.acceptableStatusCodes == [200, 404])
        #expect(untouched.isLoggingEnabled == false)
        #expect(untouched.callKey == CallKey("m"))
        #expect(untouched.sharesIdenticalCalls == true)
        #expect(untouched.cachePolicy == .storedOnly)

        let overridden = method.merging(
            CallOptions(
                timeout: .seconds(1),
                acceptableStatusCodes: .successful,
                isLoggingEnabled: true,
                sharesIdenticalCalls: false,
                cachePolicy: .useHTTPSemantics
            )
        )
        #expect(overridden.timeout == .seconds(1))
        #expect(overridden.deadline == .seconds(50))
        #expect(overridden.acceptableStatusCodes == .successful)
        #expect(overridden.isLoggingEnabled == true)
        #expect(overridden.sharesIdenticalCalls == false)
        #expect(overridden.cachePolicy == .useHTTPSemantics)
    }

    @Test func defaultsWhenNothingIsSet() {
        let none = CallOptions()
        #expect(none.timeout == nil)
        #expect(none.deadline == nil)
        #expect(none.acceptableStatusCodes == .successful)
        #expect(none.isLoggingEnabled == true)
        #expect(none.sharesIdenticalCalls == false)
        #expect(none.cachePolicy == .useHTTPSemantics)
        #expect(none.middlewares.isEmpty)
    }

    /// Over a session: the call's status errors and messages add to the method's and win for the same
    /// status, its middlewares run after the method's, and what it leaves out stays the method's.
    @Test func aCallsOverridesReachTheSession() async throws {
        let transport = StubTransport()
        transport.on("/x", reply: .status(409))
        let log = LockedValue<[String]>([])
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let method = Configured(log: log)

        await #expect(throws: Failure.method) { try await session.perform(method) }
        await #expect(throws: Failure.call) {
            try await session.perform(
                method,
                options: CallOptions(
                    statusErrors: [.conflict: Failure.call],
                    middlewares: [Tagged(name: "call", log: log)]
                )
            )
        }
        #expect(log.current == ["method", "method", "call"])

        transport.on("/x", reply: .status(410))
        await #expect(throws: Failure.method) { try await session.perform(method, options: CallOptions()) }

        transport.on("/x", reply: .status(400))
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(method, options: CallOptions(statusMessages: [.badRequest: "call"]))
        }
        #expect(error?.description.contains("call") == true)

        transport.on("/x", reply: .text("", statusCode: 404))
        #expect(try await session.perform(method).isEmpty)
        await #expect(throws: ApiError.self) {
            try await session.perform(method, options: CallOptions(acceptableStatusCodes: .successful))
        }
    }

    @Test func aCallsTimeoutEndsIt() async throws {
        let transport = StubTransport()
        transport.on("/x", reply: CannedResponse.text("late").delayed(by: .seconds(5)))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        await #expect(throws: ApiError.timeout) {
            try await session.perform(
                Configured(log: LockedValue([])),
                options: CallOptions(timeout: .milliseconds(200))
            )
        }
    }

    /// ``CallOptions/unlimited`` and anything longer mean no limit, never an overflow.
    @Test(arguments: [CallOptions.unlimited, .seconds(Int64.max)])
    func anUnlimitedTimeoutLetsASlowReplyThrough(timeout: Duration) async throws {
        let transport = StubTransport()
        transport.on("/x", reply: CannedResponse.text("slow").delayed(by: .seconds(0.3)))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let options = CallOptions(timeout: timeout, deadline: timeout)
        let body = try await session.perform(Configured(log: LockedValue([])), options: options)
        #expect(body == Data("slow".utf8))
    }

    /// The session's defaults sit under the method's options and the call's: session → method → call.
    @Test func theSessionsDefaultsAreTheLevelBelowTheMethod() async throws {
        let transport = StubTransport()
        transport.on("/x", reply: .text("gone", statusCode: 410))
        let log = LockedValue<[String]>([])
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            defaults: CallOptions(
                acceptableStatusCodes: [200, 410],
                statusMessages: [.badRequest: "session", .gone: "session"],
                middlewares: [Tagged(name: "session defaults", log: log)]
            )
        )
        // A method that sets no statuses takes the session's, and its middlewares run after the session's.
        #expect(try await session.perform(Plain()) == Data("gone".utf8))
        #expect(log.current == ["session defaults"])
        // The method's own statuses and errors win; the session's message still names a status the method leaves.
        await #expect(throws: Failure.method) { try await session.perform(Configured(log: log)) }
        transport.on("/x", reply: .text("bad", statusCode: 400))
        let bad = await #expect(throws: ApiError.self) {
            try await session.perform(Plain(), options: .init(acceptableStatusCodes: [200]))
        }
        #expect(bad?.statusMessage == "session")
        // The call's own settings win over both.
        transport.on("/x", reply: .text("gone", statusCode: 410))
        #expect(
            try await session.perform(Configured(log: log), options: CallOptions(acceptableStatusCodes: [410]))
                == Data("gone".utf8)
        )
    }

    /// The session's timeout is every call's unless the method or the call sets one.
    @Test func theSessionsTimeoutEndsACallThatSetsNone() async throws {
        let transport = StubTransport()
        transport.on("/x", reply: CannedResponse.text("late").delayed(by: .seconds(5)))
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            defaults: CallOptions(timeout: .milliseconds(200))
        )
        await #expect(throws: ApiError.timeout) { try await session.perform(Plain()) }
        #expect(session.defaults.timeout == .milliseconds(200))
        #expect(session.defaults.deadline == .seconds(60))
        #expect(session.defaults.maximumResponseSize == Int64(10 * 1024 * 1024))
    }
}

private struct Plain: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/x" }
    func encode(to encoder: any Encoder) throws {}
}

extension ApiError {
    fileprivate var statusMessage: String? {
        if case .unacceptableStatus(let failure) = self { return failure.message }
        return nil
    }
}
