import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock, for the little shared state CoreAPI keeps.
///
/// The lock is the platform's plain one (`os_unfair_lock` on Apple platforms, a `pthread_mutex_t`
/// elsewhere) rather than `NSLock`: several of these are made for every call, and on Linux making and
/// releasing an `NSLock` costs far more than a plain mutex. `Synchronization.Mutex` would do, but it
/// needs newer deployment targets than the package supports.
///
/// The value and the lock share one allocation, and the value is reached through a pointer rather than
/// a stored `var`: the lock already makes each access exclusive, and a class's `var` would add the
/// runtime's exclusivity check to every one. Copies share the value.
package struct LockedValue<Value>: @unchecked Sendable {  // every access to the value holds the lock
    private let storage: LockedStorage<Value>

    /// Creates a guarded value.
    package init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            lock.lock()
            defer { lock.unlock() }
            return try body(&value.pointee)
        }
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }
}

/// The value of a ``LockedValue`` as the buffer's header, and its lock as the single element.
private final class LockedStorage<Value>: ManagedBuffer<Value, RawLock> {
    static func make(_ value: Value) -> LockedStorage {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { $0.initialize() }
        // `create` is inherited from `ManagedBuffer` and makes an instance of this class.
        return unsafeDowncast(buffer, to: LockedStorage.self)
    }

    deinit {
        withUnsafeMutablePointerToElements { $0.destroy() }
    }
}

/// The platform's plain lock, used in place through a pointer.
#if canImport(Darwin)
    private typealias RawLock = os_unfair_lock
#elseif canImport(Glibc) || canImport(Musl)
    private typealias RawLock = pthread_mutex_t
#else
    private typealias RawLock = NSLock
#endif

extension UnsafeMutablePointer where Pointee == RawLock {
    fileprivate func initialize() {
        #if canImport(Darwin)
            initialize(to: os_unfair_lock())
        #elseif canImport(Glibc) || canImport(Musl)
            initialize(to: pthread_mutex_t())
            pthread_mutex_init(self, nil)
        #else
            initialize(to: NSLock())
        #endif
    }

    fileprivate func destroy() {
        #if canImport(Glibc) || canImport(Musl)
            pthread_mutex_destroy(self)
        #endif
        deinitialize(count: 1)
    }

    fileprivate func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(self)
        #elseif canImport(Glibc) || canImport(Musl)
            pthread_mutex_lock(self)
        #else
            pointee.lock()
        #endif
    }

    fileprivate func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(self)
        #elseif canImport(Glibc) || canImport(Musl)
            pthread_mutex_unlock(self)
        #else
            pointee.unlock()
        #endif
    }
}
