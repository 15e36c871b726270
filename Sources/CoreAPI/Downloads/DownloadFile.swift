import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file one download writes, and what it needs to resume: where the body goes while it arrives
/// (`<destination>.partial`), the validator a resumed request names in `If-Range` (kept beside it in
/// `<destination>.partial-validator` when the partial file outlives the call), and how much is written.
///
/// The transport writes from its own thread and the call may end while it still delivers, so every
/// step holds the lock, and nothing is written once the file is closed. An exchange the session has
/// given up (a timeout, then a resumed request) may still deliver for a moment after it: each exchange
/// writes as one attempt, and a piece or head of an attempt that is no longer the current one is
/// refused, so it can neither land in the next exchange's file nor spoil its range check.
final class DownloadFile: Sendable {
    private struct State {
        var handle: FileHandle?
        var isClosed = false
        /// Bytes in the partial file.
        var written: Int64 = 0
        /// Bytes the partial file held when the current exchange started.
        var resumedFrom: Int64 = 0
        /// The strong `ETag`, else the `Last-Modified`, of the version being written.
        var validator: String?
        var acceptsRanges = false
        /// Whether a `206` did not continue the partial file: another range, or another version.
        var mismatched = false
        /// The exchange allowed to write: moved on by ``pause()`` and ``restart()``.
        var attempt = 0
    }

    /// Where the finished file goes.
    let destination: URL
    private let partial: URL
    private let validatorFile: URL
    private let overwrite: Bool
    private let keepsPartialFile: Bool
    private let maximumSize: Int64
    private let state = LockedValue(State())

    /// Prepares the download described by `options`, picking up a partial file an earlier download
    /// kept; nothing is sent yet.
    /// - Throws: ``ApiError/InvalidRequestReason/destinationExists(path:)`` or
    ///   ``ApiError/InvalidRequestReason/unwritableFile(path:)``.
    init(options: DownloadOptions) throws(ApiError) {
        let manager = FileManager.default
        switch options.destination {
        case .temporaryFile:
            destination = manager.temporaryDirectory.appendingPathComponent("CoreAPI-\(UUID().uuidString).download")
            keepsPartialFile = false
        case .file(let url):
            destination = url
            keepsPartialFile = options.keepsPartialFile
        }
        partial = URL(fileURLWithPath: destination.path + ".partial")
        validatorFile = URL(fileURLWithPath: destination.path + ".partial-validator")
        overwrite = options.overwrite
        maximumSize = options.maximumSize ?? .max
        if !overwrite, manager.fileExists(atPath: destination.path) {
            throw .invalidRequest(.destinationExists(path: destination.path))
        }
        var resumable = State()
        if keepsPartialFile, let validator = try? String(contentsOf: validatorFile, encoding: .utf8),
            let size = (try? manager.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber
        {
            resumable.validator = validator
            resumable.written = size.int64Value
            resumable.acceptsRanges = true
        } else {
            try? manager.removeItem(at: validatorFile)
            guard manager.createFile(atPath: partial.path, contents: nil) else {
                throw .invalidRequest(.unwritableFile(path: partial.path))
            }
        }
        state.withLock { $0 = resumable }
    }

    /// The fields that ask for the rest of the partial file, when there is a part to continue.
    var rangeHeaders: [(name: String, value: String)] {
        state.withLock { state in
            guard state.written > 0, state.acceptsRanges, let validator = state.validator else { return [] }
            return [(name: "Range", value: "bytes=\(state.written)-"), (name: "If-Range", value: validator)]
        }
    }

    /// Bytes the partial file held when the current exchange started.
    var resumedFrom: Int64 {
        state.withLock { $0.resumedFrom }
    }

    /// The attempt the next exchange writes as: pass it to ``start(with:attempt:)`` and
    /// ``write(_:attempt:)``.
    var currentAttempt: Int {
        state.withLock { $0.attempt }
    }

    /// Takes the head of a response whose body is the file: a `206` continues the partial file, any
    /// other status starts it again.
    /// - Throws: ``ApiError/TransportFailure/Kind/badResponse`` for a `206` that does not continue it
    ///   (see ``takeMismatch()``);
    ///   ``ApiError/responseTooLarge(limit:)`` when the declared length passes the limit.
    func start(with response: HTTPURLResponse, attempt: Int) throws {
        let validator = Self.validator(of: response)
        let head = ResponseHead(response)
        try state.withLock { state in
            guard !state.isClosed, state.attempt == attempt else { throw ApiError.cancelled }
            if response.statusCode == 206 {
                guard state.written > 0, Self.rangeStart(of: response) == state.written,
                    validator == nil || validator == state.validator
                else {
                    state.mismatched = true
                    throw ApiError.transport(.init(kind: .badResponse))
                }
            } else {
                state.written = 0
                state.validator = validator
                state.acceptsRanges =
                    response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased().contains("bytes") ?? false
            }
            if head.declaresMore(than: maximumSize, after: state.written) {
                throw ApiError.responseTooLarge(limit: maximumSize)
            }
            do {
                let handle = try FileHandle(forWritingTo: partial)
                try handle.truncate(atOffset: UInt64(state.written))
                try handle.seekToEnd()
                state.handle = handle
            } catch {
                throw ApiError.invalidRequest(.unwritableFile(path: partial.path))
            }
            state.resumedFrom = state.written
            if keepsPartialFile, let validator = state.validator {
                try? validator.write(to: validatorFile, atomically: true, encoding: .utf8)
            } else {
                try? FileManager.default.removeItem(at: validatorFile)
            }
        }
    }

    /// Appends a piece of the body that `attempt`'s exchange delivered.
    /// - Throws: ``ApiError/responseTooLarge(limit:)`` past the limit;
    ///   ``ApiError/InvalidRequestReason/unwritableFile(path:)`` when the disk refuses it;
    ///   ``ApiError/cancelled`` once the download has ended or moved on to another attempt.
    func write(_ piece: Data, attempt: Int) throws {
        try state.withLock { state in
            guard !state.isClosed, state.attempt == attempt, let handle = state.handle else {
                throw ApiError.cancelled
            }
            guard state.written + Int64(piece.count) <= maximumSize else {
                throw ApiError.responseTooLarge(limit: maximumSize)
            }
            do {
                try handle.write(contentsOf: piece)
            } catch {
                throw ApiError.invalidRequest(.unwritableFile(path: partial.path))
            }
            state.written += Int64(piece.count)
        }
    }

    /// Whether the exchange that just failed answered a range request with a `206` that does not
    /// continue the partial file; asking clears it.
    func takeMismatch() -> Bool {
        state.withLock { state in
            defer { state.mismatched = false }
            return state.mismatched
        }
    }

    /// Whether the exchange that just failed can be continued with a range request.
    var canResume: Bool {
        state.withLock { $0.written > 0 && $0.acceptsRanges && $0.validator != nil }
    }

    /// Closes the file after an exchange that failed, keeping what was written for the next one.
    func pause() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            state.attempt += 1
        }
    }

    /// Forgets what was written, for an exchange that starts the file again.
    func restart() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            state.written = 0
            state.validator = nil
            state.attempt += 1
        }
        try? FileManager.default.removeItem(at: validatorFile)
    }

    /// Moves the finished file to its destination.
    /// - Returns: Its size.
    func finish() throws(ApiError) -> Int64 {
        let written = state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            state.isClosed = true
            return state.written
        }
        let manager = FileManager.default
        do {
            if overwrite, manager.fileExists(atPath: destination.path) {
                try manager.removeItem(at: destination)
            }
            try manager.moveItem(at: partial, to: destination)
        } catch {
            throw .invalidRequest(.unwritableFile(path: destination.path))
        }
        try? manager.removeItem(at: validatorFile)
        return written
    }

    /// Ends a download that failed or was cancelled: the partial file stays for a later download when
    /// it may and can be resumed, and is removed otherwise.
    func abandon() {
        let keeps = state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
            state.isClosed = true
            return keepsPartialFile && state.written > 0 && state.acceptsRanges && state.validator != nil
        }
        if !keeps {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: validatorFile)
        }
    }

    /// The validator a range request may name in `If-Range`: a strong `ETag`, else `Last-Modified`.
    private static func validator(of response: HTTPURLResponse) -> String? {
        if let tag = response.value(forHTTPHeaderField: "ETag"), !tag.hasPrefix("W/"), !tag.isEmpty {
            return tag
        }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The first byte a `206`'s `Content-Range` (`bytes 100-199/200`) covers.
    private static func rangeStart(of response: HTTPURLResponse) -> Int64? {
        guard let range = response.value(forHTTPHeaderField: "Content-Range"),
            range.lowercased().hasPrefix("bytes "),
            let dash = range.firstIndex(of: "-")
        else { return nil }
        return Int64(range[range.index(range.startIndex, offsetBy: 6)..<dash].trimmingCharacters(in: .whitespaces))
    }
}
