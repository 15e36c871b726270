import Foundation

extension HTTPCacheMiddleware {
    /// A ``HTTPCacheMiddleware/Store`` in memory, with a byte limit: storing past it drops the entries used least
    /// recently first. A key keeps at most ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey`` variants, the one used
    /// least recently going first.
    public final class MemoryStore: HTTPCacheMiddleware.Store {
        private struct Entry {
            var response: HTTPCacheMiddleware.StoredResponse
            var size: Int
            var lastUse: UInt64
            var stored: UInt64
        }

        private struct State {
            /// The variants of each key.
            var entries: [String: [Entry]] = [:]
            var bytes = 0
            var count = 0
            var clock: UInt64 = 0

            mutating func remove(_ key: String, at index: Int) {
                guard let old = entries[key]?.remove(at: index) else { return }
                bytes -= old.size
                count -= 1
                if entries[key]?.isEmpty ?? false {
                    entries[key] = nil
                }
            }

            mutating func removeAll(of key: String) {
                for entry in entries.removeValue(forKey: key) ?? [] {
                    bytes -= entry.size
                    count -= 1
                }
            }
        }

        /// The most bytes the entries may take, by ``HTTPCacheMiddleware/StoredResponse/size``.
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

        /// How many entries there are, every variant counted.
        public var count: Int {
            state.withLock { $0.count }
        }

        /// The matching variant stored for `key` last, which becomes the most recently used.
        public func response(
            for key: String,
            matching matches: @Sendable (HTTPCacheMiddleware.StoredResponse) -> Bool
        ) async -> HTTPCacheMiddleware.StoredResponse? {
            state.withLock { state in
                guard let variants = state.entries[key],
                    let index = variants.indices.filter({ matches(variants[$0].response) })
                        .max(by: { variants[$0].stored < variants[$1].stored })
                else { return nil }
                state.clock += 1
                state.entries[key]?[index].lastUse = state.clock
                return variants[index].response
            }
        }

        /// Stores `response` as a variant of `key`, then drops the variants of `key` past
        /// ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey`` and the entries past the byte limit, least recently
        /// used first.
        public func store(_ response: HTTPCacheMiddleware.StoredResponse, for key: String) async {
            let size = response.size
            let variant = response.variantKey
            state.withLock { state in
                if let index = state.entries[key]?.firstIndex(where: { $0.response.variantKey == variant }) {
                    state.remove(key, at: index)
                }
                guard size <= byteLimit else { return }
                state.clock += 1
                state.entries[key, default: []].append(
                    Entry(response: response, size: size, lastUse: state.clock, stored: state.clock)
                )
                state.bytes += size
                state.count += 1
                while let variants = state.entries[key],
                    variants.count > HTTPCacheMiddleware.StoredResponse.maximumVariantsPerKey,
                    let oldest = variants.indices.min(by: { variants[$0].lastUse < variants[$1].lastUse })
                {
                    state.remove(key, at: oldest)
                }
                while state.bytes > byteLimit {
                    var oldest: (key: String, index: Int, lastUse: UInt64)?
                    for (key, variants) in state.entries {
                        for (index, entry) in variants.enumerated() where entry.lastUse < oldest?.lastUse ?? .max {
                            oldest = (key, index, entry.lastUse)
                        }
                    }
                    guard let oldest else { break }
                    state.remove(oldest.key, at: oldest.index)
                }
            }
        }

        /// Removes every variant stored for `key`.
        public func removeResponse(for key: String) async {
            state.withLock { $0.removeAll(of: key) }
        }

        /// Removes every response of `classification`.
        public func removeResponses(classifiedAs classification: String) async {
            state.withLock { state in
                for (key, variants) in state.entries {
                    for index in variants.indices.reversed()
                    where variants[index].response.classification == classification {
                        state.remove(key, at: index)
                    }
                }
            }
        }

        /// Removes every response.
        public func removeAll() async {
            state.withLock { $0 = State() }
        }
    }
}
