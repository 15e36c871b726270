import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A kind of temporary file CoreAPI writes for a call, named after the process that writes it:
/// `<prefix><process ID>-<UUID><suffix>`.
///
/// A process killed during a call removes nothing, so its files stay in the temporary folder. The first
/// file of a kind a process makes in a folder sweeps that folder first (see ``sweep(_:now:isRunning:)``)
/// and removes what processes that no longer run left there.
struct TemporaryFileName: Sendable {
    /// The start of every name of the kind.
    let prefix: String
    /// The end of the names ``makeURL(in:)`` makes.
    let suffix: String
    /// The end of the names a sweep removes: the file a call writes while it runs, which is ``suffix``
    /// itself or, for a download, the partial file beside the destination.
    let leftoverSuffix: String

    /// A multipart body written to a file: `CoreAPI-multipart-<pid>-<UUID>.tmp`.
    static let multipartBody = TemporaryFileName(
        prefix: "CoreAPI-multipart-",
        suffix: ".tmp",
        leftoverSuffix: ".tmp"
    )

    /// A streamed request body written to a file for an engine that uploads from files only:
    /// `CoreAPI-stream-<pid>-<UUID>.tmp`.
    static let streamedBody = TemporaryFileName(
        prefix: "CoreAPI-stream-",
        suffix: ".tmp",
        leftoverSuffix: ".tmp"
    )

    /// A download to a temporary file: `CoreAPI-download-<pid>-<UUID>.download`, written as
    /// `….download.partial` until it is complete. A complete file belongs to the caller and is never
    /// swept; a partial one is swept once its process has ended.
    static let download = TemporaryFileName(
        prefix: "CoreAPI-download-",
        suffix: ".download",
        leftoverSuffix: ".download.partial"
    )

    /// How long after its last change a leftover file of another process that still runs, or of an
    /// unknown one, is removed all the same: one day. A process ID is reused once its process has ended,
    /// and no call takes that long.
    static let staleAge: TimeInterval = 24 * 60 * 60

    /// The folders this process has swept, with the prefix of the kind swept.
    private static let sweptFolders = LockedValue(Set<String>())

    /// A new name of this kind in `folder`, for this process; the first of the kind in each folder
    /// sweeps it first (see ``sweep(_:now:isRunning:)``).
    func makeURL(in folder: URL) -> URL {
        let key = prefix + "\u{0}" + folder.standardizedFileURL.path
        if Self.sweptFolders.withLock({ $0.insert(key).inserted }) {
            sweep(folder)
        }
        return folder.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)\(suffix)")
    }

    /// Removes the leftover files of this kind that other processes of this user left in `folder`: those
    /// named after a process that no longer runs, and those not changed for ``staleAge`` whose process
    /// still runs (another one may have its ID now) or whose name has no process ID. Files of other
    /// users, of this process, anything but regular files, and names of any other form are left alone.
    /// - Parameters:
    ///   - folder: The folder to sweep.
    ///   - now: The time ages are measured at.
    ///   - isRunning: Whether a process with an ID runs.
    /// - Returns: The files removed.
    @discardableResult
    func sweep(
        _ folder: URL,
        now: Date = Date(),
        isRunning: (Int32) -> Bool = TemporaryFileName.isRunning
    ) -> [URL] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        let ownProcess = Int32(getpid())
        let user = UInt32(getuid())
        var removed: [URL] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(leftoverSuffix) {
            let url = folder.appendingPathComponent(name)
            let process = processID(inLeftoverName: name)
            // The item itself: a symbolic link is not followed, and is not a regular file.
            guard process != ownProcess, let attributes = try? manager.attributesOfItem(atPath: url.path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == user,
                let changed = attributes[.modificationDate] as? Date
            else { continue }
            let isStale = now.timeIntervalSince(changed) > Self.staleAge
            let isOrphaned = process.map { !isRunning($0) } ?? false
            guard isOrphaned || isStale else { continue }
            if (try? manager.removeItem(at: url)) != nil {
                removed.append(url)
            }
        }
        return removed
    }

    /// The process ID in a leftover file's name, `<prefix><pid>-<UUID><leftoverSuffix>`; `nil` for a name
    /// of another form, such as the `CoreAPI-multipart-<UUID>.tmp` of earlier versions.
    func processID(inLeftoverName name: String) -> Int32? {
        guard name.hasPrefix(prefix), name.hasSuffix(leftoverSuffix) else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(leftoverSuffix.count)
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
