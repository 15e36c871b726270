import CoreAPI
import Foundation
import Testing

/// What every ``HTTPCacheMiddleware/Store`` does, for the memory and the file store alike, then what each does on
/// its own: least-recently-used eviction, and files that are truncated, aged or past the byte limit.
@Suite(.timeLimit(.minutes(1)))
struct HTTPCacheStoreTests {
    enum Kind: String, CaseIterable, Sendable {
        case memory, file
    }

    static func makeStore(_ kind: Kind) throws -> any HTTPCacheMiddleware.Store {
        switch kind {
        case .memory: HTTPCacheMiddleware.MemoryStore()
        case .file: try HTTPCacheMiddleware.FileStore(directory: temporaryDirectory())
        }
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("coreapi-store-\(UUID().uuidString)")
    }

    static func response(
        _ text: String,
        classification: String? = nil,
        at time: Date = Date()
    ) -> HTTPCacheMiddleware.StoredResponse {
        HTTPCacheMiddleware.StoredResponse(
            url: URL(string: "https://api.test/items")!,
            statusCode: 200,
            headers: ["Content-Type": "text/plain", "ETag": "\"\(text.count)\""],
            body: Data(text.utf8),
            requestTime: time,
            responseTime: time,
            classification: classification,
            varyValues: ["accept-language": "de"]
        )
    }

    @Test(arguments: Kind.allCases)
    func storesReplacesAndRemoves(kind: Kind) async throws {
        let store = try Self.makeStore(kind)
        let first = Self.response("first")
        await store.store(first, for: "GET https://api.test/items")
        #expect(await store.response(for: "GET https://api.test/items") == first)
        #expect(await store.response(for: "GET https://api.test/other") == nil)
        let second = Self.response("second")
        await store.store(second, for: "GET https://api.test/items")
        #expect(await store.response(for: "GET https://api.test/items") == second)
        await store.removeResponse(for: "GET https://api.test/items")
        #expect(await store.response(for: "GET https://api.test/items") == nil)
    }

    @Test(arguments: Kind.allCases)
    func removesOneClassification(kind: Kind) async throws {
        let store = try Self.makeStore(kind)
        await store.store(Self.response("a", classification: "user-1"), for: "a")
        await store.store(Self.response("b", classification: "user-2"), for: "b")
        await store.store(Self.response("c"), for: "c")
        await store.removeResponses(classifiedAs: "user-1")
        #expect(await store.response(for: "a") == nil)
        #expect(await store.response(for: "b")?.body == Data("b".utf8))
        #expect(await store.response(for: "c")?.body == Data("c".utf8))
        await store.removeAll()
        #expect(await store.response(for: "b") == nil)
        #expect(await store.response(for: "c") == nil)
    }

    /// Past its byte limit, the memory store drops the entry used least recently.
    @Test func theMemoryStoreDropsTheLeastRecentlyUsed() async throws {
        let one = Self.response(String(repeating: "x", count: 400))
        let store = HTTPCacheMiddleware.MemoryStore(byteLimit: one.size * 3)
        for key in ["a", "b", "c"] {
            await store.store(one, for: key)
        }
        _ = await store.response(for: "a")  // now b is the least recently used
        await store.store(one, for: "d")
        #expect(await store.response(for: "b") == nil)
        for key in ["a", "c", "d"] {
            #expect(await store.response(for: key) != nil)
        }
        #expect(store.bytes == one.size * 3)
    }

    /// A truncated file is a miss and is removed; so is one past the age limit.
    @Test func unreadableAndAgedFilesAreMisses() async throws {
        let directory = Self.temporaryDirectory()
        let store = try HTTPCacheMiddleware.FileStore(directory: directory, ageLimit: .seconds(60))
        await store.store(Self.response("whole body"), for: "k")
        let file = try #require(
            FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects
                .compactMap { $0 as? URL }.first { !$0.hasDirectoryPath && $0.lastPathComponent.count == 64 }
        )
        let data = try Data(contentsOf: file)
        try data.prefix(data.count - 3).write(to: file)
        #expect(await store.response(for: "k") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await store.store(Self.response("old", at: Date().addingTimeInterval(-120)), for: "old")
        #expect(await store.response(for: "old") == nil)
        #expect(store.bytesOnDisk == 0)
    }

    /// Past the byte limit, the oldest files go first, down to nine tenths of the limit; what is on disk
    /// stays under the limit.
    @Test func theFileStoreKeepsToItsByteLimit() async throws {
        let store = try HTTPCacheMiddleware.FileStore(directory: Self.temporaryDirectory(), byteLimit: 64 * 1024)
        #expect(store.evictionTarget == 58_983)
        let body = String(repeating: "y", count: 10_000)
        var evictions = 0
        for index in 0..<20 {
            let before = store.bytesOnDisk
            await store.store(Self.response(body + "\(index)"), for: "key-\(index)")
            let after = store.bytesOnDisk
            #expect(after <= 64 * 1024)
            if after < before {
                evictions += 1
                #expect(after <= store.evictionTarget)
            }
        }
        #expect(evictions >= 2)
        #expect(await store.response(for: "key-19") != nil)
        #expect(await store.response(for: "key-0") == nil)
    }

    /// Eight writers on two stores over one directory: every read sees a whole entry that one of them
    /// wrote, never a mix.
    @Test func concurrentWritersNeverLeaveHalfAnEntry() async throws {
        let directory = Self.temporaryDirectory()
        let stores = [
            try HTTPCacheMiddleware.FileStore(directory: directory),
            try HTTPCacheMiddleware.FileStore(directory: directory),
        ]
        let bodies = (0..<8).map { String(repeating: Character(UnicodeScalar(65 + $0)!), count: 50_000) }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<20 {
                        await stores[writer % 2].store(Self.response(bodies[writer]), for: "shared-\(round % 3)")
                        if let read = await stores[(writer + 1) % 2].response(for: "shared-\(round % 3)") {
                            #expect(bodies.contains(String(decoding: read.body, as: UTF8.self)))
                        }
                    }
                }
            }
        }
        for key in 0..<3 {
            let read = await stores[0].response(for: "shared-\(key)")
            #expect(read.map { bodies.contains(String(decoding: $0.body, as: UTF8.self)) } ?? true)
        }
    }

    static func variant(
        _ language: String,
        body: String? = nil,
        at seconds: TimeInterval = 0
    ) -> HTTPCacheMiddleware.StoredResponse {
        let time = Date(timeIntervalSinceNow: -100 + seconds)
        return HTTPCacheMiddleware.StoredResponse(
            url: URL(string: "https://api.test/items")!,
            statusCode: 200,
            headers: ["Vary": "Accept-Language"],
            body: Data((body ?? language).utf8),
            requestTime: time,
            responseTime: time,
            varyValues: ["accept-language": "sha256:" + language]
        )
    }

    /// A key keeps up to eight variants: the same variant is replaced, a ninth drops the one used least
    /// recently, a lookup without a test gets the one stored last, and removing the key removes all.
    @Test(arguments: Kind.allCases)
    func keepsEightVariantsPerKey(kind: Kind) async throws {
        let store = try Self.makeStore(kind)
        // The file store orders use by modification times, which a file system may round to ticks.
        let tick: Duration = kind == .file ? .milliseconds(20) : .zero
        func language(_ name: String) -> @Sendable (HTTPCacheMiddleware.StoredResponse) -> Bool {
            { $0.varyValues["accept-language"] == "sha256:" + name }
        }
        for index in 0..<8 {
            await store.store(Self.variant("l\(index)", at: Double(index)), for: "k")
            try await Task.sleep(for: tick)
        }
        #expect(await store.response(for: "k", matching: language("l0"))?.body == Data("l0".utf8))
        try await Task.sleep(for: tick)
        await store.store(Self.variant("l3", body: "new", at: 3), for: "k")
        try await Task.sleep(for: tick)
        await store.store(Self.variant("l8", at: 8), for: "k")
        #expect(await store.response(for: "k", matching: language("l1")) == nil)
        #expect(await store.response(for: "k", matching: language("l3"))?.body == Data("new".utf8))
        for index in [0, 2, 4, 5, 6, 7, 8] {
            #expect(await store.response(for: "k", matching: language("l\(index)")) != nil, "l\(index)")
        }
        #expect(await store.response(for: "k")?.body == Data("l8".utf8))
        #expect(await store.response(for: "other", matching: language("l8")) == nil)
        await store.removeResponse(for: "k")
        #expect(await store.response(for: "k") == nil)
    }

    /// An entry file copied over another key's, or edited to name another key, is served for neither
    /// key: a file is served only for the key it holds, at the place of that key.
    @Test func anEntryFileHoldingAnotherKeyIsAMiss() async throws {
        let directory = Self.temporaryDirectory()
        let store = try HTTPCacheMiddleware.FileStore(directory: directory)
        let ada = "GET https://api.test/me user:ada"
        let bob = "GET https://api.test/me user:bob"
        await store.store(Self.response("for ada"), for: ada)
        await store.store(Self.response("for bob"), for: bob)
        let files = try (FileManager.default.subpaths(atPath: directory.path) ?? [])
            .map { directory.appendingPathComponent($0) }
            .filter { (try $0.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true }
        #expect(files.count == 2)
        let adaFile = try #require(try files.first { try Data(contentsOf: $0).range(of: Data("for ada".utf8)) != nil })
        let bobFile = try #require(files.first { $0 != adaFile })
        let adaData = try Data(contentsOf: adaFile)
        try adaData.write(to: bobFile)
        #expect(await store.response(for: bob) == nil)
        #expect(!FileManager.default.fileExists(atPath: bobFile.path))
        #expect(await store.response(for: ada)?.body == Data("for ada".utf8))
        var edited = adaData
        let name = try #require(edited.range(of: Data("user:ada".utf8)))
        edited.replaceSubrange(name, with: Data("user:bob".utf8))
        try edited.write(to: adaFile)
        #expect(await store.response(for: ada) == nil)
        #expect(await store.response(for: bob) == nil)
    }
}
