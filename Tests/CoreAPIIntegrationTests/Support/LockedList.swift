import Foundation

/// A list guarded by a lock, for values reported from other threads.
final class LockedList<Element: Sendable>: @unchecked Sendable {  // `items` is only touched under `lock`
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ element: Element) {
        lock.withLock { items.append(element) }
    }

    var values: [Element] { lock.withLock { items } }
}
