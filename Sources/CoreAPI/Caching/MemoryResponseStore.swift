import Foundation

/// A ``ResponseStore`` in memory, with a byte limit: storing past it drops the entries used least
/// recently first.
public final class MemoryResponseStore: ResponseStore {
    private struct Entry {
        var response: StoredResponse
        var size: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes the entries may take, by ``StoredResponse/size``.
    public let byteLimit: Int
    private let state = LockedValue(State())

    /// Creates an empty store.
    /// - Parameter byteLimit: The most bytes the entries may take; 10 MiB by default. An entry larger
    ///   than the limit is not stored.
    public init(byteLimit: Int = 10 << 20) {
        self.byteLimit = byteLimit
    }

    /// How many bytes the entries take.
    public var bytes: Int {
        state.withLock { $0.bytes }
    }

    /// How many entries there are.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// The response stored for `key`, which becomes the most recently used.
    public func response(for key: String) async -> StoredResponse? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.response
        }
    }

    /// Stores `response`, then drops the least recently used entries while the limit is passed.
    public func store(_ response: StoredResponse, for key: String) async {
        let size = response.size
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.size
            }
            guard size <= byteLimit else { return }
            state.clock += 1
            state.entries[key] = Entry(response: response, size: size, lastUse: state.clock)
            state.bytes += size
            while state.bytes > byteLimit, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.bytes -= oldest.value.size
            }
        }
    }

    /// Removes the response stored for `key`.
    public func removeResponse(for key: String) async {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.size
            }
        }
    }

    /// Removes every response of `classification`.
    public func removeResponses(classifiedAs classification: String) async {
        state.withLock { state in
            for (key, entry) in state.entries where entry.response.classification == classification {
                state.entries.removeValue(forKey: key)
                state.bytes -= entry.size
            }
        }
    }

    /// Removes every response.
    public func removeAll() async {
        state.withLock { $0 = State() }
    }
}
