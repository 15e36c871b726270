import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
