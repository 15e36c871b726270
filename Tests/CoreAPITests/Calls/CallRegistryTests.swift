import Foundation
import Testing

@testable import CoreAPI

private struct Probe: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
}

private struct OtherProbe: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
}

@Suite struct CallRegistryTests {
    /// `cancelAll()` cancels every open call once, newest first (the newest tasks are the ones still
    /// waiting for a connection), and leaves closed calls alone.
    @Test func cancelAllCancelsOpenCallsNewestFirst() {
        let registry = CallRegistry()
        let order = LockedValue<[Int]>([])
        var identifiers: [Int] = []
        for index in 0..<5 {
            let call = Call()
            call.attachTask { order.withLock { $0.append(index) } }
            identifiers.append(registry.open(call, method: Probe(), key: nil, group: nil))
        }
        registry.close(identifiers[2])
        registry.cancelAll()
        #expect(order.withLock { $0 } == [4, 3, 1, 0])
    }

    /// A call cancelled before its task or exchange is attached cancels them as they arrive.
    @Test func aCancelledCallCancelsWhatIsAttachedLater() {
        let call = Call()
        call.cancel()
        let cancelled = LockedValue(false)
        call.attachTask { cancelled.withLock { $0 = true } }
        #expect(call.isCancelled)
        #expect(cancelled.withLock { $0 })
    }

    /// Calls are listed oldest first with their method and key, and cancelled by what they perform,
    /// by key or by group, leaving the others alone.
    @Test func callsAreFoundAndCancelledByTypeKeyAndGroup() {
        let registry = CallRegistry()
        let cancelled = LockedValue<[Int]>([])
        let provider = GroupOwner()  // alive for the whole test: its identity names the group
        let group = ObjectIdentifier(provider)
        let specs: [(any ApiMethod, CallKey?, ObjectIdentifier?)] = [
            (Probe(), nil, nil), (OtherProbe(), CallKey("a"), nil), (Probe(), CallKey("a"), group),
            (OtherProbe(), nil, group),
        ]
        for (index, (method, key, owner)) in specs.enumerated() {
            let call = Call()
            call.attachTask { cancelled.withLock { $0.append(index) } }
            _ = registry.open(call, method: method, key: key, group: owner)
        }
        #expect(registry.infos().map(\.methodName) == ["Probe", "OtherProbe", "Probe", "OtherProbe"])
        #expect(registry.infos().map(\.key) == [nil, CallKey("a"), CallKey("a"), nil])
        #expect(registry.count() == 4)
        #expect(registry.count(group: group) == 2)
        #expect(registry.infos(group: group).map(\.methodName) == ["Probe", "OtherProbe"])
        #expect(registry.cancel { $0.performs(Probe.self) } == 2)
        #expect(cancelled.withLock { $0 } == [2, 0])
        #expect(registry.cancel { $0.key == CallKey("a") } == 2)  // a cancelled call stays listed until it closes
        #expect(cancelled.withLock { $0 } == [2, 0, 2, 1])
        #expect(registry.cancel(group: group) == 2)
        #expect(cancelled.withLock { $0 } == [2, 0, 2, 1, 3, 2])
    }

    /// A watcher gets the count when it starts watching, then every change in order.
    @Test(.timeLimit(.minutes(1)))
    func countsArriveInOrder() async {
        let registry = CallRegistry()
        var counts = registry.counts().makeAsyncIterator()
        #expect(await counts.next() == 0)
        let first = registry.open(Call(), method: Probe(), key: nil, group: nil)
        let second = registry.open(Call(), method: Probe(), key: nil, group: nil)
        #expect(await counts.next() == 2)  // only the newest count is kept while the watcher is busy
        registry.close(first)
        #expect(await counts.next() == 1)
        registry.close(second)
        #expect(await counts.next() == 0)
    }
}

/// An object whose identity names a group of calls, as a provider's does.
private final class GroupOwner {}
