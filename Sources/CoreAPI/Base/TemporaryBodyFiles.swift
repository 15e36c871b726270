import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The temporary body files of the process, each removed once its call has ended and no transport
/// reads it any more, and those a process that died left behind.
///
/// A call ends as soon as it is cancelled or times out, while the engine may still read the body file
/// for a moment (FoundationNetworking reads the next chunk of an upload on its own queue). Removing the
/// file under it crashes FoundationNetworking on Linux, so a transport that reads a temporary file
/// holds it with ``retain(_:)`` until its engine is done, and ``discard(_:)`` leaves the file to the last
/// ``release(_:)``.
///
/// A process killed during an upload removes nothing: its file stays in the temporary folder. Each file
/// is therefore named after the process that writes it, `CoreAPI-multipart-<pid>-<UUID>.tmp`, and the
/// first temporary file a process makes in a folder sweeps that folder first (see
/// ``sweep(_:now:isRunning:)``).
enum TemporaryBodyFiles {
    private struct Entry {
        var readers = 0
        var isDiscarded = false
    }

    /// The files being read or waiting for their readers, by path.
    private static let entries = LockedValue([String: Entry]())

    /// Marks `url` as read by one more reader.
    static func retain(_ url: URL) {
        entries.withLock { $0[url.path, default: Entry()].readers += 1 }
    }

    /// Marks one reader of `url` as done; removes the file when it was discarded and this was the last.
    static func release(_ url: URL) {
        let remove = entries.withLock { entries -> Bool in
            guard var entry = entries[url.path] else { return false }
            entry.readers -= 1
            if entry.readers > 0 {
                entries[url.path] = entry
                return false
            }
            entries[url.path] = nil
            return entry.isDiscarded
        }
        if remove {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Removes `url` now, or once its last reader is done.
    static func discard(_ url: URL) {
        let remove = entries.withLock { entries -> Bool in
            guard entries[url.path] != nil else { return true }
            entries[url.path]?.isDiscarded = true
            return false
        }
        if remove {
            try? FileManager.default.removeItem(at: url)
        }
    }

    // MARK: - Files left by processes that died

    /// The start of every temporary multipart body file's name.
    static let multipartPrefix = "CoreAPI-multipart-"

    /// How long after its last change a temporary body file of another process that still runs, or of
    /// an unknown one, is removed all the same: one day. A process ID is reused once its process has
    /// ended, and no upload takes that long.
    static let staleAge: TimeInterval = 24 * 60 * 60

    /// The folders this process has swept.
    private static let sweptFolders = LockedValue(Set<String>())

    /// A new temporary multipart body file in `folder`, named after this process; the first in each
    /// folder sweeps it first (see ``sweep(_:now:isRunning:)``).
    static func makeMultipartFileURL(in folder: URL) -> URL {
        let path = folder.standardizedFileURL.path
        if sweptFolders.withLock({ $0.insert(path).inserted }) {
            sweep(folder)
        }
        return folder.appendingPathComponent("\(multipartPrefix)\(getpid())-\(UUID().uuidString).tmp")
    }

    /// Removes the temporary multipart body files that other processes of this user left in `folder`:
    /// those named after a process that no longer runs, and those not changed for ``staleAge`` whose
    /// process still runs (another one may have its ID now) or whose name has no process ID. Files of
    /// other users, of this process, anything but regular files, and names of any other form are left
    /// alone.
    /// - Parameters:
    ///   - folder: The folder to sweep.
    ///   - now: The time ages are measured at.
    ///   - isRunning: Whether a process with an ID runs.
    /// - Returns: The files removed.
    @discardableResult
    static func sweep(
        _ folder: URL,
        now: Date = Date(),
        isRunning: (Int32) -> Bool = TemporaryBodyFiles.isRunning
    ) -> [URL] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        let ownProcess = Int32(getpid())
        let user = UInt32(getuid())
        var removed: [URL] = []
        for name in names where name.hasPrefix(multipartPrefix) && name.hasSuffix(".tmp") {
            let url = folder.appendingPathComponent(name)
            let process = processID(inMultipartFileName: name)
            // The item itself: a symbolic link is not followed, and is not a regular file.
            guard process != ownProcess, let attributes = try? manager.attributesOfItem(atPath: url.path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == user,
                let changed = attributes[.modificationDate] as? Date
            else { continue }
            let isStale = now.timeIntervalSince(changed) > staleAge
            let isOrphaned = process.map { !isRunning($0) } ?? false
            guard isOrphaned || isStale else { continue }
            if (try? manager.removeItem(at: url)) != nil {
                removed.append(url)
            }
        }
        return removed
    }

    /// The process ID in a temporary multipart body file's name, `CoreAPI-multipart-<pid>-<UUID>.tmp`;
    /// `nil` for a name of another form, such as the `CoreAPI-multipart-<UUID>.tmp` of earlier versions.
    static func processID(inMultipartFileName name: String) -> Int32? {
        guard name.hasPrefix(multipartPrefix), name.hasSuffix(".tmp") else { return nil }
        let middle = name.dropFirst(multipartPrefix.count).dropLast(".tmp".count)
        let fields = middle.split(separator: "-", omittingEmptySubsequences: false)
        // The process ID and the UUID's five groups.
        guard fields.count == 6, let first = fields.first, first.allSatisfy(\.isASCII),
            let process = Int32(first), process > 0,
            UUID(uuidString: fields.dropFirst().joined(separator: "-")) != nil
        else { return nil }
        return process
    }

    /// Whether a process with ID `process` runs: it can be signalled, or exists but belongs to another
    /// user (whose process may have taken over the ID).
    static func isRunning(_ process: Int32) -> Bool {
        kill(process, 0) == 0 || errno == EPERM
    }
}
