import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whole-file replacement for files that are a cache, not a record: the bytes go to a hidden temporary
/// file beside the target, which is then renamed over it, so a reader sees the old file or the new one,
/// never part of one.
///
/// Unlike `Data.write(to:options: .atomic)` it does not `fsync`: after a power loss a file may be empty
/// or short, which a reader of a cache must treat as a miss anyway, and skipping the flush makes a
/// write much cheaper.
enum AtomicFile {
    /// The error of a write: the system call that failed and its `errno`.
    struct WriteError: Error, Equatable {
        /// The system call that failed.
        var call: String
        /// Its `errno`.
        var code: Int32
    }

    /// Replaces the file at `url` with `data`, or creates it. The temporary file's name starts with a dot.
    /// - Throws: ``WriteError`` when the file cannot be created, written or renamed; the temporary file
    ///   is then removed and the old file left as it was.
    static func replace(_ url: URL, with data: Data) throws {
        let target = url.path
        let temporary =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: .min ... .max))").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(call: "open", code: errno) }
        var failure: WriteError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = WriteError(call: "write", code: errno)
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil {
            failure = WriteError(call: "close", code: errno)
        }
        if failure == nil, rename(temporary, target) != 0 {
            failure = WriteError(call: "rename", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
