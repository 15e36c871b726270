import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private enum LookupError: Error, Equatable { case empty }

/// Keeps what `finalize` stored, as a cache would.
private final class Store: Sendable {
    let saved = LockedValue<[Int]>([])
}

/// Returns the body's length, not the body; fails for an empty one.
private struct BodyLength: ApiMethod {
    typealias Response = Data
    let store: Store
    var hostProviderKey: String { "api" }
    var path: String { "/x" }

    func encode(to encoder: any Encoder) throws {}

    func finalize(_ response: Data) async throws -> Int {
        try await Task.sleep(for: .milliseconds(1))  // may await
        guard !response.isEmpty else { throw LookupError.empty }
        store.saved.withLock { $0.append(response.count) }
        return response.count
    }
}

@Suite(.timeLimit(.minutes(1)))
struct FinalizeTests {
    let transport = StubTransport()
    private let store = Store()
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func theCallReturnsTheFinalValueFinalizeStored() async throws {
        transport.on("/x", reply: .text("12345"))
        let length: Int = try await session.perform(BodyLength(store: store))
        #expect(length == 5)
        #expect(store.saved.current == [5])
    }

    @Test func aFinalizeErrorReachesTheCallerAsItIs() async throws {
        transport.on("/x", reply: .text(""))
        await #expect(throws: LookupError.empty) { try await session.perform(BodyLength(store: store)) }
        #expect(store.saved.current.isEmpty)
    }

    @Test func aFailedCallNeverReachesFinalize() async throws {
        transport.on("/x", reply: .status(500))
        let error = await #expect(throws: ApiError.self) { try await session.perform(BodyLength(store: store)) }
        #expect(error?.statusCode == 500)
        #expect(store.saved.current.isEmpty)
    }

    @Test func theCompletionFormReturnsTheFinalValueToo() async throws {
        transport.on("/x", reply: .text("abc"))
        let session = session
        let result = await withCheckedContinuation { continuation in
            _ = session.perform(BodyLength(store: store)) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == 3)
        #expect(store.saved.current == [3])
    }
}
