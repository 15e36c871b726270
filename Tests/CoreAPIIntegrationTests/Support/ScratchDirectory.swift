import CoreAPITesting
import Foundation

/// A directory of its own under the temporary directory, for body files.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("coreapi-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The names of the files in the directory.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// The names of the files in the directory once it has settled: a call ends before the engine is
    /// done with a cancelled upload, and its temporary body file is removed when the engine is (within
    /// 50 ms here, 10 s at the most); waits up to 5 s for the directory to hold no more than `count`.
    ///
    /// A directory still fuller at the timeout is no error here: the caller's expectation on the names
    /// it returns reports it, with the names.
    func contents(settlingTo count: Int) async throws -> [String] {
        try? await waitUntil(timeout: .seconds(5)) { (try? contents().count).map { $0 <= count } ?? true }
        return try contents()
    }

    /// A file of `size` bytes of a repeating, non-trivial pattern, written in 1 MiB chunks.
    func makeFile(named name: String, size: Int) throws -> URL {
        let file = url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            try handle.write(contentsOf: chunk.prefix(count))
            remaining -= count
        }
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
