import Dispatch
import Foundation

/// The queue an ``ApiSession``'s `URLSession` calls its delegate on.
///
/// On Linux, FoundationNetworking hands every delegate call — the response, each body chunk, the
/// completion — to `addOperation(_:)` as a block. The stock `OperationQueue` wraps each block in a
/// `BlockOperation` with its own locks and state changes, which cost about 9 % of the CPU of a small
/// request here; the plain completion-handler path that `data(for:)` takes has none of that. This
/// queue runs the blocks, in order, on a serial dispatch queue instead, which is also its
/// `underlyingQueue`, so anything that goes through `OperationQueue` itself runs there too.
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
        serial.async(execute: block)
    }

    override func addOperation(_ operation: Operation) {
        serial.async { operation.start() }
    }
}
