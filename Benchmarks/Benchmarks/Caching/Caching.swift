import BenchSupport
import Benchmark
import CoreAPI
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Metrics of the response stores.
enum StoreMetrics {
    /// The lengths of the files under the store's directory at the end of an iteration, added up.
    static let fileBytes = BenchmarkMetric.custom(
        "File lengths (B)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
    /// The blocks the file system allocated to those files, in bytes: what the byte limit bounds.
    static let allocatedBytes = BenchmarkMetric.custom(
        "Allocated bytes (B)",
        polarity: .prefersSmaller,
        useScalingFactor: false
    )
}

/// An entry of the kind an API answers: a 4 KiB JSON-sized body with a typical head.
func storedEntry(_ index: Int) -> HTTPCacheMiddleware.StoredResponse {
    HTTPCacheMiddleware.StoredResponse(
        url: URL(string: "https://api.example.com/v1/items/\(index)")!,
        statusCode: 200,
        headers: [
            "Content-Type": "application/json; charset=utf-8",
            "Cache-Control": "max-age=60",
            "ETag": "\"item-\(index)\"",
            "Date": "Tue, 24 Nov 2026 09:00:00 GMT",
        ],
        body: Data(repeating: UInt8(ascii: "a") &+ UInt8(index % 26), count: 4096),
        requestTime: Date(),
        responseTime: Date()
    )
}

/// The key of entry `index`, shaped like the HTTP cache's keys.
func storeKey(_ index: Int) -> String {
    "GET https://api.example.com/v1/items/\(index)"
}

/// A new empty directory for one iteration's store.
func storeDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("coreapi-store-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// The lengths of every file under `directory` and the blocks allocated to them (`st_blocks` × 512),
/// each added up.
func diskUsage(under directory: URL) -> (lengths: Int, allocated: Int) {
    var usage = (lengths: 0, allocated: 0)
    let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
        var status = stat()
        if stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            usage.lengths += Int(status.st_size)
            usage.allocated += Int(status.st_blocks) * 512
        }
    }
    return usage
}

/// The response stores: writes and reads per second of ``HTTPCacheMiddleware/FileStore`` (4 KiB bodies, one file
/// each) and of ``HTTPCacheMiddleware/MemoryStore`` beside it, and the file store kept at its byte limit, with what
/// its files take on disk at the end. Every iteration performs 1000 operations (scaling factor `.kilo`)
/// on a store of its own in a new temporary directory, made and filled outside the measured part.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.mallocCountTotal, .cpuTotal, .wallClock, CustomMetrics.cpu, CustomMetrics.rate]
    func configuration(adding extra: [BenchmarkMetric] = []) -> Benchmark.Configuration {
        .suite(
            metrics: metrics + extra,
            warmupIterations: 1,
            scalingFactor: .kilo,
            maxDuration: RunSettings.isShort ? .seconds(2) : .seconds(10),
            maxIterations: RunSettings.isShort ? 5 : 40
        )
    }
    let atLimit = configuration(adding: [StoreMetrics.fileBytes, StoreMetrics.allocatedBytes])

    Benchmark("file store: write 4 KiB entries", configuration: configuration()) { benchmark in
        let directory = try storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try HTTPCacheMiddleware.FileStore(directory: directory, byteLimit: 1 << 30, ageLimit: nil)
        let count = benchmark.scaledIterations.count
        let entries = (0..<count).map(storedEntry)
        benchmark.startMeasurement()
        await benchmark.measureOperations(count) {
            for index in 0..<count {
                await store.store(entries[index], for: storeKey(index))
            }
        }
        benchmark.stopMeasurement()
    }

    Benchmark("file store: read 4 KiB entries", configuration: configuration()) { benchmark in
        let directory = try storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try HTTPCacheMiddleware.FileStore(directory: directory, byteLimit: 1 << 30, ageLimit: nil)
        let count = benchmark.scaledIterations.count
        for index in 0..<count {
            await store.store(storedEntry(index), for: storeKey(index))
        }
        benchmark.startMeasurement()
        await benchmark.measureOperations(count) {
            for index in 0..<count {
                blackHole(await store.response(for: storeKey(index)))
            }
        }
        benchmark.stopMeasurement()
    }

    // An entry's file is 4.3 KB and takes two 4 KiB blocks, so 4 MiB holds about 510 of them: after a
    // fill to the limit, the 1000 writes of an iteration pass it, and evict down to nine tenths of it,
    // about twenty times.
    Benchmark("file store: write at its 4 MiB byte limit", configuration: atLimit) { benchmark in
        let directory = try storeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try HTTPCacheMiddleware.FileStore(directory: directory, byteLimit: 4 << 20, ageLimit: nil)
        let count = benchmark.scaledIterations.count
        for index in 0..<count {
            await store.store(storedEntry(index), for: storeKey(index))
        }
        let entries = (count..<2 * count).map(storedEntry)
        benchmark.startMeasurement()
        await benchmark.measureOperations(count) {
            for (offset, entry) in entries.enumerated() {
                await store.store(entry, for: storeKey(count + offset))
            }
        }
        benchmark.stopMeasurement()
        let usage = diskUsage(under: directory)
        benchmark.measurement(StoreMetrics.fileBytes, usage.lengths)
        benchmark.measurement(StoreMetrics.allocatedBytes, usage.allocated)
    }

    Benchmark("memory store: write 4 KiB entries", configuration: configuration()) { benchmark in
        let store = HTTPCacheMiddleware.MemoryStore(byteLimit: 64 << 20)
        let count = benchmark.scaledIterations.count
        let entries = (0..<count).map(storedEntry)
        benchmark.startMeasurement()
        await benchmark.measureOperations(count) {
            for index in 0..<count {
                await store.store(entries[index], for: storeKey(index))
            }
        }
        benchmark.stopMeasurement()
    }

    Benchmark("memory store: read 4 KiB entries", configuration: configuration()) { benchmark in
        let store = HTTPCacheMiddleware.MemoryStore(byteLimit: 64 << 20)
        let count = benchmark.scaledIterations.count
        for index in 0..<count {
            await store.store(storedEntry(index), for: storeKey(index))
        }
        benchmark.startMeasurement()
        await benchmark.measureOperations(count) {
            for index in 0..<count {
                blackHole(await store.response(for: storeKey(index)))
            }
        }
        benchmark.stopMeasurement()
    }
}
