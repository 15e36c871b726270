import Foundation

/// The temporary body files of the process, each removed once its call has ended and no transport
/// reads it any more, and those a process that died left behind.
///
/// A call ends as soon as it is cancelled or times out, while the engine may still read the body file
/// for a moment (FoundationNetworking reads the next chunk of an upload on its own queue). Removing the
/// file under it crashes FoundationNetworking on Linux, so a transport that reads a temporary file
/// holds it with ``retain(_:)`` until its engine is done, and ``discard(_:)`` leaves the file to the last
/// ``release(_:)``.
///
/// A process killed during an upload removes nothing: its file stays in the temporary folder, named after
/// the process (``TemporaryFileName/multipartBody``), until a later process sweeps the folder.
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
}
