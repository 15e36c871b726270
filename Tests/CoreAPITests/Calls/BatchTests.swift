import CoreAPI
import CoreAPITesting
import Foundation
import Testing

private struct GetItem: ApiMethod {
    typealias Response = Data
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/items/\(id)" }
}

private struct Held: ApiMethod {
    typealias Response = Data
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/held/\(id)" }
}

private struct GetCount: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/count" }
    var httpMethod: HTTPMethod { .head }
}

/// Batches against a transport that answers `/items/<id>` with `<id>` after a short wait, except the
/// ids listed as failing: 404 for `missing`, a lost connection for `broken`.
@Suite(.timeLimit(.minutes(1)))
struct BatchTests {
    let transport = StubTransport()
    let inFlight = InFlight()
    let started = LockedValue<[Int]>([])

    init(missing: Set<Int> = [], broken: Set<Int> = []) {
        transport.on("/items/*") { [inFlight, started] request in
            let id = Int(request.url.lastPathComponent) ?? -1
            started.withLock { $0.append(id) }
            return try await inFlight.run {
                try await Task.sleep(for: .milliseconds(20))
                if missing.contains(id) { return .status(404) }
                if broken.contains(id) { return .failure(.transport(.init(kind: .connectionLost))) }
                return .text(String(id))
            }
        }
        transport.on("/count", reply: .status(204))
    }

    private var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test(arguments: [Batch.Mode.sequential, .concurrent(limit: 3), .concurrent(limit: 50)])
    func outputsComeInInputOrderWithinTheLimit(mode: Batch.Mode) async throws {
        let outputs = try await session.performAll((0..<20).map { GetItem(id: $0) }, mode: mode)
        #expect(outputs.map(Self.text) == (0..<20).map(String.init))
        let limit = mode == .sequential ? 1 : (mode == .concurrent(limit: 3) ? 3 : 20)
        #expect(inFlight.most <= limit)
        #expect(inFlight.total == 20)
        if mode == .sequential {
            #expect(started.withLock { $0 } == Array(0..<20))
        }
    }

    @Test func theFirstErrorStopsPerformAll() async throws {
        let batch = BatchTests(missing: [3])
        let error = await #expect(throws: ApiError.self) {
            try await batch.session.performAll((0..<10).map { GetItem(id: $0) }, mode: .sequential)
        }
        #expect(error?.statusCode == 404)
        #expect(batch.started.withLock { $0 } == [0, 1, 2, 3])  // nothing after the failure starts
    }

    @Test func continueAllReturnsEveryResult() async throws {
        let batch = BatchTests(missing: [2], broken: [5])
        let results = await batch.session.performEach((0..<8).map { GetItem(id: $0) }, mode: .concurrent(limit: 3))
        let summary = results.map { result in
            switch result {
            case .success(let data): Self.text(data)
            case .failure(let error): (error as? ApiError).map { "\(ApiError.Category($0))" } ?? "?"
            }
        }
        #expect(summary == ["0", "1", "status", "3", "4", "network", "6", "7"])
        #expect(batch.inFlight.total == 8)
    }

    /// A 404 is that item's result; a lost connection stops the rest, which end as cancelled.
    @Test func cancelRestExceptListedCategories() async throws {
        let batch = BatchTests(missing: [1], broken: [3])
        var progress: [Batch.Progress] = []
        let recorded = LockedValue<[Batch.Progress]>([])
        let results = await batch.session.performEach(
            (0..<8).map { GetItem(id: $0) },
            mode: .sequential,
            onError: .cancelRest(except: [.status])
        ) { step in recorded.withLock { $0.append(step) } }
        progress = recorded.withLock { $0 }
        let categories = results.map { result -> String in
            switch result {
            case .success: "ok"
            case .failure(let error): "\(ApiError.Category(error))"
            }
        }
        #expect(categories == ["ok", "status", "ok", "network", "cancelled", "cancelled", "cancelled", "cancelled"])
        #expect(batch.started.withLock { $0 } == [0, 1, 2, 3])
        #expect(progress.map(\.completed) == Array(1...8))
        #expect(progress.last == Batch.Progress(total: 8, succeeded: 2, failed: 6))
    }

    @Test func resultsArriveAsTheyCompleteWithTheirIndex() async throws {
        var seen: [Int] = []
        for await item in session.results(of: (0..<12).map { GetItem(id: $0) }, mode: .concurrent(limit: 4)) {
            #expect(try Self.text(item.result.get()) == String(item.index))
            seen.append(item.index)
        }
        #expect(seen.sorted() == Array(0..<12))
        #expect(inFlight.most <= 4)
    }

    @Test func releasingTheStreamCancelsTheRest() async throws {
        do {
            let results = session.results(of: (0..<50).map { GetItem(id: $0) }, mode: .sequential)
            for await _ in results {
                break
            }
        }
        let stopped = inFlight.total
        try await Task.sleep(for: .milliseconds(300))  // 15 more calls' worth if nothing was cancelled
        #expect(inFlight.total <= stopped + 1)
    }

    /// Replies are held until the limit is reached: a batch that ran its calls one at a time would
    /// never get there.
    @Test func aConcurrentBatchRunsUpToItsLimitAtOnce() async throws {
        let gate = ReplyGate()
        transport.on("/held/*") { [gate] request in
            await gate.wait()
            return .text(request.url.lastPathComponent)
        }
        let session = session
        let batch = Task { try await session.performAll((0..<6).map { Held(id: $0) }, mode: .concurrent(limit: 3)) }
        try await waitUntil { gate.arrived == 3 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(gate.arrived == 3)  // never a fourth while three are held
        gate.open()
        #expect(try await batch.value.map(Self.text) == (0..<6).map(String.init))
    }

    @Test func methodsOfDifferentTypesComeBackAsATuple() async throws {
        let (item, count, other) = try await session.performAll(GetItem(id: 5), GetCount(), GetItem(id: 6))
        #expect(Self.text(item) == "5")
        #expect(count.isEmpty)
        #expect(Self.text(other) == "6")
    }

    @Test func aFailingMemberOfATupleIsThrown() async throws {
        let batch = BatchTests(missing: [9])
        let error = await #expect(throws: ApiError.self) {
            try await batch.session.performAll(GetItem(id: 1), GetItem(id: 9), GetCount())
        }
        #expect(error?.statusCode == 404)
    }

    @Test func anEmptyBatchIsEmpty() async throws {
        #expect(try await session.performAll([GetItem](), mode: .concurrent(limit: 3)).isEmpty)
        #expect(await session.performEach([GetItem]()).isEmpty)
    }
}
