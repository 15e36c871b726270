import Foundation
import Testing

@testable import CoreAPI

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
            identifiers.append(registry.open(call))
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
}
