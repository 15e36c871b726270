import Foundation
import Testing

@testable import CoreAPI

@Suite struct ExchangeWrappersTests {
    /// A wrapper that records its name on the way in and tags the request with it, then sends it on.
    private static func wrapper(_ name: String, log: LockedValue<[String]>) -> ExchangeWrappers.Wrapper {
        { request, send in
            log.withLock { $0.append(name) }
            var request = request
            request.headers.add(name, for: "X-Wrapper")
            return try await send(request)
        }
    }

    /// Sends one request through `wrappers`; returns the wrappers' names in the order they ran and the
    /// `X-Wrapper` values the request reached the end with.
    private static func send(
        through wrappers: ExchangeWrappers,
        log: LockedValue<[String]>
    ) async throws -> (
        ran: [String], sent: [String]
    ) {
        log.withLock { $0 = [] }
        let sent = LockedValue<[String]>([])
        _ = try await wrappers.send(ApiRequest(url: URL(string: "https://api.test/x")!)) { request in
            sent.withLock { $0 = request.headers.values(for: "X-Wrapper") }
            return try RawResponse(url: request.url, statusCode: 200, data: Data())
        }
        return (log.withLock { $0 }, sent.withLock { $0 })
    }

    @Test func wrappersRunOutermostFirstAndEachRemovalKeepsTheOthersInOrder() async throws {
        let log = LockedValue<[String]>([])
        var wrappers = ExchangeWrappers()
        #expect(wrappers.isEmpty)
        let first = wrappers.add(Self.wrapper("a", log: log))
        let second = wrappers.add(Self.wrapper("b", log: log))
        let third = wrappers.add(Self.wrapper("c", log: log))
        #expect(try await Self.send(through: wrappers, log: log) == (["a", "b", "c"], ["a", "b", "c"]))

        // Out of order, as when a middleware's two concurrent passes end in another order than they began.
        let copy = wrappers
        wrappers.remove(second)
        #expect(try await Self.send(through: wrappers, log: log) == (["a", "c"], ["a", "c"]))
        #expect(try await Self.send(through: copy, log: log) == (["a", "b", "c"], ["a", "b", "c"]))

        wrappers.remove(second)  // already gone: nothing changes
        #expect(try await Self.send(through: wrappers, log: log) == (["a", "c"], ["a", "c"]))
        wrappers.remove(third)
        #expect(try await Self.send(through: wrappers, log: log) == (["a"], ["a"]))
        let fourth = wrappers.add(Self.wrapper("d", log: log))
        #expect(fourth > third)  // numbers are never reused
        wrappers.remove(first)
        #expect(try await Self.send(through: wrappers, log: log) == (["d"], ["d"]))
        wrappers.remove(fourth)
        #expect(wrappers.isEmpty)
        #expect(try await Self.send(through: wrappers, log: log) == ([], []))
    }
}
