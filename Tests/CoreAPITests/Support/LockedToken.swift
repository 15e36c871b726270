import Synchronization

/// A string several tasks read and write.
final class LockedToken: Sendable {
    private let storage: Mutex<String>

    init(_ value: String) {
        storage = Mutex(value)
    }

    var value: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
