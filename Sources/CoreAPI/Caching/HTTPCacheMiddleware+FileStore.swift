public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension HTTPCacheMiddleware {
    /// A ``HTTPCacheMiddleware/Store`` in files under one directory, which survives a restart of the process.
    ///
    /// Each variant of an entry is one file, in a folder named by the SHA-256 of its key — never the URL
    /// or the request — inside a folder named by the SHA-256 of its classification, so
    /// ``removeResponses(classifiedAs:)`` removes one folder; the file is named by the SHA-256 of the
    /// variant's ``HTTPCacheMiddleware/StoredResponse/variantKey``. A file holds the key, the status, the header fields, the
    /// times, the classification, the `Vary` digests and the body, nothing else. It is written whole to a
    /// temporary name and then renamed over the old one, so a reader never sees half an entry, and several
    /// stores (of one process or several) may share the directory. Writes are not flushed to the disk (no
    /// `fsync`): a cache loses nothing it cannot load again, and an entry cut short by a power loss is a
    /// miss. A file that is truncated or otherwise unreadable, or that holds another key, is a miss, and is
    /// removed.
    ///
    /// When the files pass ``byteLimit``, the ones used least recently (a file's modification time is
    /// set when it is read) are removed until they take at most nine tenths of it (``evictionTarget``), so
    /// a store kept at its limit lists its files once per tenth of the limit written, not at every write;
    /// an entry older than ``ageLimit`` is a miss, and is removed. Files of an older format are removed
    /// when the store opens.
    public final class FileStore: HTTPCacheMiddleware.Store {
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

        private static let magic = Data("CoreAPI response 2\n".utf8)

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
        public init(directory: URL, byteLimit: Int64 = 50 << 20, ageLimit: Duration? = .seconds(30 * 24 * 3600)) throws
        {
            self.directory = directory
            self.byteLimit = byteLimit
            self.ageLimit = ageLimit
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            Self.removeLegacyFiles(in: directory)
            bytes = LockedValue(Self.files(in: directory).reduce(0) { $0 + $1.size })
        }

        /// How many bytes the entry files take on disk now: the blocks the file system allocated to them.
        public var bytesOnDisk: Int64 {
            Self.files(in: directory).reduce(0) { $0 + $1.size }
        }

        /// The matching variant stored for `key` last: `nil` when there is none; a file older than
        /// ``ageLimit`` or unreadable is removed. The file read gets the current time as its modification
        /// time, so eviction keeps it longest.
        public func response(
            for key: String,
            matching matches: @Sendable (HTTPCacheMiddleware.StoredResponse) -> Bool
        ) async -> HTTPCacheMiddleware.StoredResponse? {
            let keyFolder = SHA256.hex(of: key.utf8)
            var best: (response: HTTPCacheMiddleware.StoredResponse, file: URL)?
            for folder in Self.contents(of: directory) {
                let variants = directory.appendingPathComponent(folder, isDirectory: true)
                    .appendingPathComponent(keyFolder, isDirectory: true)
                for name in Self.contents(of: variants) where !name.hasPrefix(".") {
                    let file = variants.appendingPathComponent(name, isDirectory: false)
                    guard let data = try? Data(contentsOf: file) else { continue }
                    guard let response = Self.decode(data, key: key) else {
                        unlink(file.path)
                        continue
                    }
                    if let ageLimit, Date().timeIntervalSince(response.responseTime) > Self.seconds(ageLimit) {
                        unlink(file.path)
                        continue
                    }
                    if matches(response), response.responseTime >= best?.response.responseTime ?? .distantPast {
                        best = (response, file)
                    }
                }
            }
            guard let best else { return nil }
            utimes(best.file.path, nil)
            return best.response
        }

        /// Stores `response` for `key` in its classification's folder, replacing the same variant of the
        /// key in another one, drops the variants of the key used least recently past
        /// ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey``, then removes the files used least recently while the
        /// files pass ``byteLimit``.
        public func store(_ response: HTTPCacheMiddleware.StoredResponse, for key: String) async {
            let folderName = Self.folderName(for: response.classification)
            let keyFolder = SHA256.hex(of: key.utf8)
            let folder = directory.appendingPathComponent(folderName, isDirectory: true)
                .appendingPathComponent(keyFolder, isDirectory: true)
            let name = SHA256.hex(of: response.variantKey.utf8)
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
            var variants: [(url: URL, modified: TimeInterval)] = []
            for other in Self.contents(of: directory) {
                let otherFolder = directory.appendingPathComponent(other, isDirectory: true)
                    .appendingPathComponent(keyFolder, isDirectory: true)
                for variant in Self.contents(of: otherFolder) where !variant.hasPrefix(".") {
                    let file = otherFolder.appendingPathComponent(variant, isDirectory: false)
                    if variant == name, other != folderName {
                        unlink(file.path)
                    } else if variant != name, let modified = Self.status(of: file)?.modified {
                        variants.append((file, modified))
                    }
                }
            }
            let surplus = max(0, variants.count + 1 - HTTPCacheMiddleware.StoredResponse.maximumVariantsPerKey)
            for old in variants.sorted(by: { $0.modified < $1.modified }).prefix(surplus) {
                unlink(old.url.path)
            }
            // Counted in whole 4 KiB blocks until the next scan reads what the file system allocated.
            let total = bytes.withLock { total in
                total += (Int64(data.count) + 4095) / 4096 * 4096
                return total
            }
            if total > byteLimit {
                evict()
            }
        }

        /// Removes every variant stored for `key`.
        public func removeResponse(for key: String) async {
            let keyFolder = SHA256.hex(of: key.utf8)
            for folder in Self.contents(of: directory) {
                try? FileManager.default.removeItem(
                    at: directory.appendingPathComponent(folder, isDirectory: true)
                        .appendingPathComponent(keyFolder, isDirectory: true)
                )
            }
        }

        /// Removes the folder of `classification`.
        public func removeResponses(classifiedAs classification: String) async {
            try? FileManager.default.removeItem(
                at: directory.appendingPathComponent(Self.folderName(for: classification))
            )
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
                rmdir(file.url.deletingLastPathComponent().path)  // fails, as it should, while variants remain
                total -= file.size
            }
            bytes.withLock { $0 = total }
        }

        private func rescan() {
            let total = Self.files(in: directory).reduce(0) { $0 + $1.size }
            bytes.withLock { $0 = total }
        }

        /// The names in `folder`; none when it does not exist.
        private static func contents(of folder: URL) -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        }

        /// What the file system allocated to `file`, in bytes, and its modification time; `nil` when it
        /// cannot be read or is not a regular file.
        private static func status(of file: URL) -> (size: Int64, modified: TimeInterval)? {
            var status = stat()
            guard stat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            #if canImport(Darwin)
                let modified = status.st_mtimespec
            #else
                let modified = status.st_mtim
            #endif
            return (Int64(status.st_blocks) * 512, TimeInterval(modified.tv_sec) + TimeInterval(modified.tv_nsec) / 1e9)
        }

        /// Every entry file (`classification/key/variant`), with the bytes the file system allocated to it
        /// and the time it was written or last read.
        private static func files(in directory: URL) -> [(url: URL, size: Int64, modified: TimeInterval)] {
            var found: [(url: URL, size: Int64, modified: TimeInterval)] = []
            for folder in contents(of: directory) {
                let folderURL = directory.appendingPathComponent(folder, isDirectory: true)
                for keyFolder in contents(of: folderURL) where !keyFolder.hasPrefix(".") {
                    let keyURL = folderURL.appendingPathComponent(keyFolder, isDirectory: true)
                    for name in contents(of: keyURL) where !name.hasPrefix(".") {
                        let url = keyURL.appendingPathComponent(name, isDirectory: false)
                        guard let info = status(of: url) else { continue }
                        found.append((url, info.size, info.modified))
                    }
                }
            }
            return found
        }

        /// Removes the entry files of the first format, which sat right in a classification's folder.
        private static func removeLegacyFiles(in directory: URL) {
            for folder in contents(of: directory) {
                let folderURL = directory.appendingPathComponent(folder, isDirectory: true)
                for name in contents(of: folderURL) {
                    let url = folderURL.appendingPathComponent(name, isDirectory: false)
                    if status(of: url) != nil {
                        unlink(url.path)
                    }
                }
            }
        }

        private static func folderName(for classification: String?) -> String {
            SHA256.hex(of: ("classification:" + (classification ?? "")).utf8)
        }

        private static func seconds(_ duration: Duration) -> TimeInterval {
            TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
        }

        /// The file's bytes: the magic line, the header's length (8 bytes, big-endian), the header as JSON,
        /// the body.
        private static func encode(_ response: HTTPCacheMiddleware.StoredResponse, key: String) -> Data {
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
        private static func decode(_ data: Data, key: String) -> HTTPCacheMiddleware.StoredResponse? {
            guard data.starts(with: magic), data.count >= magic.count + 8 else { return nil }
            var length: UInt64 = 0
            for byte in data.dropFirst(magic.count).prefix(8) {
                length = length << 8 | UInt64(byte)
            }
            let headerStart = data.startIndex + magic.count + 8
            guard length <= UInt64(data.count - magic.count - 8),
                let header = try? JSONDecoder().decode(
                    Header.self,
                    from: data[headerStart..<headerStart + Int(length)]
                ),
                header.key == key,
                data.count - magic.count - 8 - Int(length) == header.bodyLength
            else { return nil }
            var response = HTTPCacheMiddleware.StoredResponse(
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
}
