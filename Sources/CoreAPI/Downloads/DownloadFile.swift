import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file one download writes, and what it needs to resume: where the body goes while it arrives
/// (`<destination>.partial`), the validator a resumed request names in `If-Range` (kept beside it in
/// `<destination>.partial-validator` when the partial file outlives the call), and how much is written.
///
/// Only a part that can be continued byte for byte is resumed: one received without a content coding
/// (`Range` counts bytes of the representation, the file holds decoded bytes), from a server that takes
/// ranges, with a strong validator (RFC 9110 §13.1.5). A `206` must start where the part ends, and a
/// `416` ends the download only when its `Content-Range: bytes */N` says the part is the whole file.
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
        /// The strong `ETag`, else the strong `Last-Modified`, of the version being written.
        var validator: String?
        var acceptsRanges = false
        /// Whether the part arrived with a content coding: its decoded bytes are not the range to ask.
        var isCoded = false
        /// Whether a `416` confirmed the part on disk is the whole file: the rest of that response is
        /// not written.
        var isComplete = false
        /// The offset the current exchange asked for with `Range`, or `nil` for the whole body.
        var requestedFrom: Int64?
        /// Whether a `206` or `416` did not continue the partial file: another range, or another version.
        var mismatched = false
        /// The exchange allowed to write: moved on by ``pause()`` and ``restart()``.
        var attempt = 0

        /// Whether the part can be continued with a range request.
        var canResume: Bool {
            written > 0 && acceptsRanges && !isCoded && validator != nil
        }
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
    init(options: DownloadedFile.Options) throws(ApiError) {
        let manager = FileManager.default
        switch options.destination {
        case .temporaryFile:
            destination = TemporaryFileName.download.makeURL(in: manager.temporaryDirectory)
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

    /// The fields of the next request: `Accept-Encoding: identity`, so that the bytes written are those a
    /// range counts, and `Range` with `If-Range` when there is a part to continue. Reading them marks the
    /// offset asked for, which the response's `206` or `416` must match.
    var requestHeaders: [(name: String, value: String)] {
        state.withLock { state in
            let identity = (name: "Accept-Encoding", value: "identity")
            guard state.canResume, let validator = state.validator else {
                state.requestedFrom = nil
                return [identity]
            }
            state.requestedFrom = state.written
            return [identity, (name: "Range", value: "bytes=\(state.written)-"), (name: "If-Range", value: validator)]
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

    /// Takes a `416` (Range Not Satisfiable) to a range request: the part on disk is the whole file when
    /// its `Content-Range: bytes */N` names the part's size, and the download is then done without a
    /// byte more (the rest of the response is not written).
    /// - Returns: `true` when the part is complete; `false` when the exchange asked for no range, and
    ///   the `416` is a status like any other.
    /// - Throws: ``ApiError/TransportFailure/Kind/badResponse`` for a `416` that does not confirm the part
    ///   (see ``takeMismatch()``), which then starts again; ``ApiError/cancelled`` for an attempt given up.
    func completes(with response: ResponseHead, attempt: Int) throws -> Bool {
        let length = Self.completeLength(of: response)
        return try state.withLock { state in
            guard !state.isClosed, state.attempt == attempt else { throw ApiError.cancelled }
            guard let requested = state.requestedFrom else { return false }
            guard requested == state.written, length == state.written else {
                state.mismatched = true
                throw ApiError.transport(.init(kind: .badResponse))
            }
            try? state.handle?.close()
            state.handle = nil
            state.isComplete = true
            state.resumedFrom = state.written
            return true
        }
    }

    /// Takes the head of a response whose body is the file: a `206` continues the partial file, any
    /// other status starts it again.
    /// - Throws: ``ApiError/TransportFailure/Kind/badResponse`` for a `206` that does not continue it:
    ///   to no range request, from another offset, of another version, or with a content coding (see
    ///   ``takeMismatch()``);
    ///   ``ApiError/responseTooLarge(limit:)`` when the declared length passes the limit.
    func start(with response: ResponseHead, attempt: Int) throws {
        let validator = Self.validator(of: response)
        let head = HeadChecks(response)
        try state.withLock { state in
            guard !state.isClosed, state.attempt == attempt else { throw ApiError.cancelled }
            if response.statusCode == 206 {
                guard let requested = state.requestedFrom, requested == state.written,
                    Self.rangeStart(of: response) == requested, head.isIdentityEncoded,
                    validator == nil || validator == state.validator
                else {
                    state.mismatched = true
                    throw ApiError.transport(.init(kind: .badResponse))
                }
            } else {
                state.written = 0
                state.validator = validator
                state.isCoded = !head.isIdentityEncoded
                state.acceptsRanges =
                    response.headers["Accept-Ranges"]?.lowercased().contains("bytes") ?? false
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
            if keepsPartialFile, state.acceptsRanges, !state.isCoded, let validator = state.validator {
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
            if state.isComplete, !state.isClosed, state.attempt == attempt {
                return  // the body of the 416 that confirmed the part
            }
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

    /// Whether the exchange that just failed can be continued with a range request: a part received
    /// without a content coding, from a server that takes ranges, with a strong validator.
    var canResume: Bool {
        state.withLock { $0.canResume }
    }

    /// Whether the exchange that just failed had started writing the file.
    var hasStarted: Bool {
        state.withLock { $0.written > 0 }
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
            state.isCoded = false
            state.isComplete = false
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
            return keepsPartialFile && state.canResume
        }
        if !keeps {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: validatorFile)
        }
    }

    /// The validator a range request may name in `If-Range`; see ``ifRangeValidator(etag:lastModified:date:)``.
    private static func validator(of response: ResponseHead) -> String? {
        ifRangeValidator(
            etag: response.headers["ETag"],
            lastModified: response.headers["Last-Modified"],
            date: response.headers["Date"]
        )
    }

    /// The validator a range request may name in `If-Range` (RFC 9110 §13.1.5), from a response's
    /// fields, or `nil` when it has no strong one and the part cannot be resumed safely.
    ///
    /// - A strong entity tag. A weak one (`W/"…"`) is never sent, and, as the RFC says, a date is not
    ///   sent either when the response has an entity tag.
    /// - Without an entity tag, the `Last-Modified` date, only when it is strong (§8.8.2.2): at least
    ///   one second before the response's `Date`. A file modified within the second the response was
    ///   made may change again within that second without a new date; without a `Date`, or when either
    ///   is not an HTTP-date, the date is weak.
    /// - Parameters:
    ///   - etag: The `ETag` value.
    ///   - lastModified: The `Last-Modified` value.
    ///   - date: The `Date` value.
    static func ifRangeValidator(etag: String?, lastModified: String?, date: String?) -> String? {
        if let etag = etag?.trimmingCharacters(in: .whitespaces), !etag.isEmpty {
            return etag.hasPrefix("W/") ? nil : etag
        }
        guard let lastModified, let date, let modified = RetryAfter.date(from: lastModified),
            let sent = RetryAfter.date(from: date), sent - modified >= 1
        else { return nil }
        return lastModified
    }

    /// The complete length a `416`'s `Content-Range` (`bytes */200`) names.
    private static func completeLength(of response: ResponseHead) -> Int64? {
        guard let range = response.headers["Content-Range"]?.trimmingCharacters(in: .whitespaces),
            range.lowercased().hasPrefix("bytes */")
        else { return nil }
        let length = range.dropFirst("bytes */".count)
        return HeadChecks.isDigits(length) ? Int64(length) : nil
    }

    /// The first byte a `206`'s `Content-Range` (`bytes 100-199/200`) covers.
    private static func rangeStart(of response: ResponseHead) -> Int64? {
        guard let range = response.headers["Content-Range"],
            range.lowercased().hasPrefix("bytes "),
            let dash = range.firstIndex(of: "-")
        else { return nil }
        return Int64(range[range.index(range.startIndex, offsetBy: 6)..<dash].trimmingCharacters(in: .whitespaces))
    }
}
