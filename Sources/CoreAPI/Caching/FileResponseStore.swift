public import Foundation

/// A ``ResponseStore`` in files under one directory, which survives a restart of the process.
///
/// Each entry is one file, named by the SHA-256 of its key — never the URL or the request — in a folder
/// named by the SHA-256 of its classification, so ``removeResponses(classifiedAs:)`` removes one folder.
/// A file is written whole to a temporary name and then renamed over the old one, so a reader never sees
/// half an entry, and several stores (of one process or several) may share the directory. A file that
/// is truncated or otherwise unreadable, or that holds another key, is a miss, and is removed.
///
/// When the files pass ``byteLimit``, the oldest stored are removed first; an entry older than
/// ``ageLimit`` is a miss, and is removed.
public final class FileResponseStore: ResponseStore {
    /// The directory the entries are in.
    public let directory: URL
    /// The most bytes the entry files may take together.
    public let byteLimit: Int64
    /// How long an entry is kept after it was stored; `nil` for no limit.
    public let ageLimit: Duration?

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
    ///   - byteLimit: The most bytes the files may take together; 50 MiB by default.
    ///   - ageLimit: How long an entry is kept; 30 days by default, `nil` for ever.
    /// - Throws: The file system's error when the directory cannot be created.
    public init(directory: URL, byteLimit: Int64 = 50 << 20, ageLimit: Duration? = .seconds(30 * 24 * 3600)) throws {
        self.directory = directory
        self.byteLimit = byteLimit
        self.ageLimit = ageLimit
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        bytes = LockedValue(Self.files(in: directory).reduce(0) { $0 + $1.size })
    }

    /// How many bytes the entry files take now.
    public var bytesOnDisk: Int64 {
        Self.files(in: directory).reduce(0) { $0 + $1.size }
    }

    /// The response stored for `key`: `nil` when there is none, or it is older than ``ageLimit``, or its
    /// file is unreadable (which is then removed).
    public func response(for key: String) async -> StoredResponse? {
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let file = directory.appendingPathComponent(folder).appendingPathComponent(SHA256.hex(of: key.utf8))
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
        await removeResponse(for: key)
        let folder = directory.appendingPathComponent(Self.folderName(for: response.classification))
        let file = folder.appendingPathComponent(SHA256.hex(of: key.utf8))
        let data = Self.encode(response, key: key)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            return  // a store that cannot write is a store that misses
        }
        let total = bytes.withLock { total in
            total += Int64(data.count)
            return total
        }
        if total > byteLimit {
            evict()
        }
    }

    /// Removes the response stored for `key`.
    public func removeResponse(for key: String) async {
        let name = SHA256.hex(of: key.utf8)
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
            try? FileManager.default.removeItem(
                at: directory.appendingPathComponent(folder).appendingPathComponent(name)
            )
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

    /// Removes entries past the age limit, then the oldest until the files fit the byte limit.
    private func evict() {
        var files = Self.files(in: directory).sorted { $0.modified < $1.modified }
        var total = files.reduce(0) { $0 + $1.size }
        let oldest = ageLimit.map { Date().addingTimeInterval(-Self.seconds($0)) } ?? .distantPast
        while let first = files.first, total > byteLimit || first.modified < oldest {
            try? FileManager.default.removeItem(at: first.url)
            total -= first.size
            files.removeFirst()
        }
        bytes.withLock { $0 = total }
    }

    private func rescan() {
        let total = Self.files(in: directory).reduce(0) { $0 + $1.size }
        bytes.withLock { $0 = total }
    }

    /// Every entry file, with its size and the time it was written.
    private static func files(in directory: URL) -> [(url: URL, size: Int64, modified: Date)] {
        let manager = FileManager.default
        var found: [(url: URL, size: Int64, modified: Date)] = []
        for folder in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let folderURL = directory.appendingPathComponent(folder)
            for name in (try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? [] where !name.hasPrefix(".") {
                let url = folderURL.appendingPathComponent(name)
                guard let attributes = try? manager.attributesOfItem(atPath: url.path),
                    let size = (attributes[.size] as? NSNumber)?.int64Value
                else { continue }
                found.append((url, size, attributes[.modificationDate] as? Date ?? .distantPast))
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
