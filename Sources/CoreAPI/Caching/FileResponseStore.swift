public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A ``ResponseStore`` in files under one directory, which survives a restart of the process.
///
/// Each entry is one file, named by the SHA-256 of its key — never the URL or the request — in a folder
/// named by the SHA-256 of its classification, so ``removeResponses(classifiedAs:)`` removes one folder.
/// A file is written whole to a temporary name and then renamed over the old one, so a reader never sees
/// half an entry, and several stores (of one process or several) may share the directory. Writes are
/// not flushed to the disk (no `fsync`): a cache loses nothing it cannot load again, and an entry cut
/// short by a power loss is a miss. A file that
/// is truncated or otherwise unreadable, or that holds another key, is a miss, and is removed.
///
/// When the files pass ``byteLimit``, the oldest stored are removed until they take at most nine
/// tenths of it (``evictionTarget``), so a store kept at its limit lists its files once per tenth of
/// the limit written, not at every write; an entry older than ``ageLimit`` is a miss, and is removed.
public final class FileResponseStore: ResponseStore {
    /// The directory the entries are in.
    public let directory: URL
    /// The most bytes the entry files may take on disk together: what the file system allocated to them,
    /// so a 4.2 KB entry counts 8 KiB where the blocks are 4 KiB.
    public let byteLimit: Int64
    /// How long an entry is kept after it was stored; `nil` for no limit.
    public let ageLimit: Duration?
    /// What the files take at most after an eviction: nine tenths of ``byteLimit``.
    public var evictionTarget: Int64 { byteLimit - byteLimit / 10 }

    /// What this store believes the files take; rescanned whenever it passes the limit.
    private let bytes: LockedValue<Int64>

    private static let magic = Data("CoreAPI response 1\n".utf8)

    /// What an entry file holds before its body.
    private struct Header: Codable {
        var key: String
        var url: URL
        var statusCode: Int
        var headerFields: [[String]]
        var requestTime: Date
        var responseTime: Date
        var classification: String?
        var varyValues: [String: String]
        var bodyLength: Int
    }

    /// Opens the store in `directory`, creating it when needed.
    /// - Parameters:
    ///   - directory: Where the entry files go; give each kind of data a directory of its own.
    ///   - byteLimit: The most bytes the files may take on disk together; 50 MiB by default.
    ///   - ageLimit: How long an entry is kept; 30 days by default, `nil` for ever.
    /// - Throws: The file system's error when the directory cannot be created.
    public init(directory: URL, byteLimit: Int64 = 50 << 20, ageLimit: Duration? = .seconds(30 * 24 * 3600)) throws {
        self.directory = directory
        self.byteLimit = byteLimit
        self.ageLimit = ageLimit
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        bytes = LockedValue(Self.files(in: directory).reduce(0) { $0 + $1.size })
    }

    /// How many bytes the entry files take on disk now: the blocks the file system allocated to them.
    public var bytesOnDisk: Int64 {
        Self.files(in: directory).reduce(0) { $0 + $1.size }
    }

    /// The response stored for `key`: `nil` when there is none, or it is older than ``ageLimit``, or its
    /// file is unreadable (which is then removed).
    public func response(for key: String) async -> StoredResponse? {
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let file = directory.appendingPathComponent(folder, isDirectory: true)
                .appendingPathComponent(SHA256.hex(of: key.utf8), isDirectory: false)
            guard let data = try? Data(contentsOf: file) else { continue }
            guard let response = Self.decode(data, key: key) else {
                try? FileManager.default.removeItem(at: file)
                continue
            }
            if let ageLimit, Date().timeIntervalSince(response.responseTime) > Self.seconds(ageLimit) {
                try? FileManager.default.removeItem(at: file)
                return nil
            }
            return response
        }
        return nil
    }

    /// Stores `response` for `key` in its classification's folder, replacing any entry of the key in
    /// another one, then removes the oldest entries while the files pass ``byteLimit``.
    public func store(_ response: StoredResponse, for key: String) async {
        let folderName = Self.folderName(for: response.classification)
        let folder = directory.appendingPathComponent(folderName, isDirectory: true)
        let name = SHA256.hex(of: key.utf8)
        let data = Self.encode(response, key: key)
        do {
            do {
                try AtomicFile.replace(folder.appendingPathComponent(name, isDirectory: false), with: data)
            } catch let error as AtomicFile.WriteError where error.call == "open" && error.code == ENOENT {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.replace(folder.appendingPathComponent(name, isDirectory: false), with: data)
            }
        } catch {
            return  // a store that cannot write is a store that misses
        }
        removeFile(named: name, exceptIn: folderName)
        // Counted in whole 4 KiB blocks until the next scan reads what the file system allocated.
        let total = bytes.withLock { total in
            total += (Int64(data.count) + 4095) / 4096 * 4096
            return total
        }
        if total > byteLimit {
            evict()
        }
    }

    /// Removes the response stored for `key`.
    public func removeResponse(for key: String) async {
        removeFile(named: SHA256.hex(of: key.utf8), exceptIn: nil)
    }

    /// Removes the entry file `name` from every classification's folder but `kept`.
    private func removeFile(named name: String, exceptIn kept: String?) {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for folder in folders where folder != kept {
            let file = directory.appendingPathComponent(folder, isDirectory: true)
                .appendingPathComponent(name, isDirectory: false)
            unlink(file.path)
        }
    }

    /// Removes the folder of `classification`.
    public func removeResponses(classifiedAs classification: String) async {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(Self.folderName(for: classification)))
        rescan()
    }

    /// Removes every entry.
    public func removeAll() async {
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(folder))
        }
        rescan()
    }

    /// Removes entries past the age limit, then the oldest until the files fit ``evictionTarget``.
    private func evict() {
        let files = Self.files(in: directory).sorted { $0.modified < $1.modified }
        var total = files.reduce(0) { $0 + $1.size }
        let oldest = ageLimit.map { Date().timeIntervalSince1970 - Self.seconds($0) } ?? -.infinity
        let target = evictionTarget
        for file in files {
            guard total > target || file.modified < oldest else { break }
            unlink(file.url.path)
            total -= file.size
        }
        bytes.withLock { $0 = total }
    }

    private func rescan() {
        let total = Self.files(in: directory).reduce(0) { $0 + $1.size }
        bytes.withLock { $0 = total }
    }

    /// Every entry file, with the bytes the file system allocated to it and the time it was written.
    private static func files(in directory: URL) -> [(url: URL, size: Int64, modified: TimeInterval)] {
        let manager = FileManager.default
        var found: [(url: URL, size: Int64, modified: TimeInterval)] = []
        for folder in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let folderURL = directory.appendingPathComponent(folder, isDirectory: true)
            for name in (try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? [] where !name.hasPrefix(".") {
                let url = folderURL.appendingPathComponent(name, isDirectory: false)
                var status = stat()
                guard stat(url.path, &status) == 0 else { continue }
                #if canImport(Darwin)
                    let modified = status.st_mtimespec
                #else
                    let modified = status.st_mtim
                #endif
                found.append(
                    (
                        url, Int64(status.st_blocks) * 512,
                        TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1e9
                    )
                )
            }
        }
        return found
    }

    private static func folderName(for classification: String?) -> String {
        SHA256.hex(of: ("classification:" + (classification ?? "")).utf8)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }

    /// The file's bytes: the magic line, the header's length (8 bytes, big-endian), the header as JSON,
    /// the body.
    private static func encode(_ response: StoredResponse, key: String) -> Data {
        let header = Header(
            key: key,
            url: response.url,
            statusCode: response.statusCode,
            headerFields: response.headerFields,
            requestTime: response.requestTime,
            responseTime: response.responseTime,
            classification: response.classification,
            varyValues: response.varyValues,
            bodyLength: response.body.count
        )
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        var data = magic
        withUnsafeBytes(of: UInt64(json.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(response.body)
        return data
    }

    /// The entry in `data` when it is whole and holds `key`.
    private static func decode(_ data: Data, key: String) -> StoredResponse? {
        guard data.starts(with: magic), data.count >= magic.count + 8 else { return nil }
        var length: UInt64 = 0
        for byte in data.dropFirst(magic.count).prefix(8) {
            length = length << 8 | UInt64(byte)
        }
        let headerStart = data.startIndex + magic.count + 8
        guard length <= UInt64(data.count - magic.count - 8),
            let header = try? JSONDecoder().decode(Header.self, from: data[headerStart..<headerStart + Int(length)]),
            header.key == key,
            data.count - magic.count - 8 - Int(length) == header.bodyLength
        else { return nil }
        var response = StoredResponse(
            url: header.url,
            statusCode: header.statusCode,
            headers: Headers(),
            body: Data(data[(headerStart + Int(length))...]),
            requestTime: header.requestTime,
            responseTime: header.responseTime,
            classification: header.classification,
            varyValues: header.varyValues
        )
        response.headerFields = header.headerFields
        return response
    }
}
