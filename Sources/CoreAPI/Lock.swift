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
/// releasing an `NSLock` costs thousands of instructions. `Synchronization.Mutex` would do, but it
/// needs newer deployment targets than the package supports.
package final class LockedValue<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private let lock = PlatformLock()
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

/// A non-recursive lock with one allocation and no Objective-C object.
struct PlatformLock: ~Copyable {
    #if canImport(Darwin)
        private let pointer: UnsafeMutablePointer<os_unfair_lock>
    #elseif canImport(Glibc) || canImport(Musl)
        private let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #else
        private let fallback = NSLock()
    #endif

    init() {
        #if canImport(Darwin)
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: os_unfair_lock())
        #elseif canImport(Glibc) || canImport(Musl)
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: pthread_mutex_t())
            pthread_mutex_init(pointer, nil)
        #endif
    }

    deinit {
        #if canImport(Darwin)
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        #elseif canImport(Glibc) || canImport(Musl)
            pthread_mutex_destroy(pointer)
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        #endif
    }

    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(pointer)
        #elseif canImport(Glibc) || canImport(Musl)
            pthread_mutex_lock(pointer)
        #else
            fallback.lock()
        #endif
    }

    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(pointer)
        #elseif canImport(Glibc) || canImport(Musl)
            pthread_mutex_unlock(pointer)
        #else
            fallback.unlock()
        #endif
    }
}

/// A flag that closes once, guarding work that must never overlap or follow its closing.
///
/// Work runs under the read side of a read-write lock, so any number of threads run it at once; closing
/// takes the write side, so it waits for work in progress and no work starts after it. ``ApiSession``
/// makes its tasks this way: on Linux a task made on an invalidated `URLSession` crashes, and making a
/// task can wait on FoundationNetworking's work queue, so a plain lock around it made concurrent calls
/// queue behind one another.
final class ClosingGate: @unchecked Sendable {  // `closed` is read under the read lock, written under the write lock
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    #else
        private let fallback = NSLock()
    #endif
    private var closed = false

    init() {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
            lock = .allocate(capacity: 1)
            lock.initialize(to: pthread_rwlock_t())
            pthread_rwlock_init(lock, nil)
        #endif
    }

    deinit {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
            pthread_rwlock_destroy(lock)
            lock.deinitialize(count: 1)
            lock.deallocate()
        #endif
    }

    /// Whether ``close()`` has not run yet.
    var isOpen: Bool {
        whileOpen { true } ?? false
    }

    /// Runs `body` unless the gate is closed, and returns its result; `nil` when closed.
    func whileOpen<Result>(_ body: () throws -> Result) rethrows -> Result? {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
            pthread_rwlock_rdlock(lock)
            defer { pthread_rwlock_unlock(lock) }
        #else
            fallback.lock()
            defer { fallback.unlock() }
        #endif
        return closed ? nil : try body()
    }

    /// Closes the gate once work in progress has finished; no work starts after it. Returns `false` when
    /// the gate was already closed.
    func close() -> Bool {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
            pthread_rwlock_wrlock(lock)
            defer { pthread_rwlock_unlock(lock) }
        #else
            fallback.lock()
            defer { fallback.unlock() }
        #endif
        guard !closed else { return false }
        closed = true
        return true
    }
}
