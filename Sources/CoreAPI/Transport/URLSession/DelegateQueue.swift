import Dispatch
import Foundation

/// The queue an ``ApiSession``'s `URLSession` calls its delegate on.
///
/// On Linux, FoundationNetworking hands every delegate call — the response, each body chunk, the
/// completion — to `addOperation(_:)` as a block, from the serial work queue of the task. The stock
/// `OperationQueue` wraps each block in a `BlockOperation` with its own locks and state changes (a
/// visible share of a small request's CPU) and then wakes a thread to run it; the
/// completion-handler path that `data(for:)` takes calls its handler on the work queue directly. This
/// queue does the same: on Linux it runs each block at once, in order, on the work queue's thread. The
/// delegate never waits there for FoundationNetworking (a task's `cancel()` would: it runs
/// synchronously on that same queue), so it hands such calls to a queue of its own.
///
/// Elsewhere the blocks run in order on a serial dispatch queue, which is also the `underlyingQueue`,
/// so anything that goes through `OperationQueue` itself runs there too.
final class DelegateQueue: OperationQueue, @unchecked Sendable {  // adds no state; `serial` is immutable
    private let serial: DispatchQueue

    init(label: String) {
        serial = DispatchQueue(label: label)
        super.init()
        name = label
        maxConcurrentOperationCount = 1
        underlyingQueue = serial
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        #if canImport(FoundationNetworking)
            block()
        #else
            serial.async(execute: block)
        #endif
    }

    override func addOperation(_ operation: Operation) {
        serial.async { operation.start() }
    }
}
