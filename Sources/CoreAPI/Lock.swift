import Foundation

/// A value guarded by a lock, for the little shared state CoreAPI keeps.
///
/// `NSLock` is used rather than `Synchronization.Mutex` because the package supports deployment
/// targets older than the ones `Mutex` needs.
package final class LockedValue<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private let lock = NSLock()
    private var value: Value

    /// Creates a guarded value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }
}
