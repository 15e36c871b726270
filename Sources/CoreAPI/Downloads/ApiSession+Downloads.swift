import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Response bodies written to a file as they arrive.
extension ApiSession {
    /// Performs `method` and writes its response body to a file as it arrives, in flat memory whatever
    /// its size.
    ///
    /// ```swift
    /// let file = try await session.download(
    ///     GetExport(id: 7),
    ///     options: DownloadOptions(destination: .file(exportURL), overwrite: true)
    /// )
    /// print(file.size, file.location.path)
    /// ```
    ///
    /// The call goes through the middlewares, redirects and status checks like any other; a status the
    /// method does not accept throws as ``perform(_:progress:)`` would, and nothing is written. CoreAPI
    /// resumes the body itself with `Range` and `If-Range`, checked against the response's validator (a
    /// strong `ETag`, else `Last-Modified`), never through the engine's resume data or task suspension:
    /// after a dropped or idle connection within the call (``DownloadOptions/resumeAttempts``), and in a
    /// later call to the same destination when ``DownloadOptions/keepsPartialFile`` kept the part. A
    /// server that answers a range request with the whole body (the file changed) starts the file again.
    ///
    /// Only the method's own ``ApiMethod/deadline`` ends a download, not the session's default one: the
    /// idle timeout ends a download that stalls.
    /// - Parameters:
    ///   - method: The call to make.
    ///   - options: The destination, the size limit and what a failure keeps.
    ///   - progress: Called with download progress, counting bytes kept from earlier attempts, on the
    ///     thread that delivers the session's network events; keep it short and never block in it.
    /// - Returns: The finished file, which the caller owns.
    /// - Throws: ``ApiError``: before anything is sent,
    ///   ``ApiError/InvalidRequestReason/destinationExists(path:)`` or
    ///   ``ApiError/InvalidRequestReason/unwritableFile(path:)``; a cancelled or failed download removes
    ///   its partial file unless it keeps it to resume.
    public func download<M: ApiMethod>(
        _ method: M,
        options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        let file = try DownloadFile(options: options)
        let acceptable = method.acceptableStatusCodes
        let limits: StreamLimits = method.deadline == nil ? .unlimited : .method
        var resumesLeft = options.resumeAttempts
        var restarted = false
        while true {
            // Each exchange writes as an attempt of its own: one given up cannot write into the next.
            let attempt = file.currentAttempt
            let handler = ResponseBodyHandler(
                accepts: { response in
                    guard acceptable.contains(response.statusCode) else { return false }
                    try file.start(with: response, attempt: attempt)
                    return true
                },
                receive: { piece in try file.write(piece, attempt: attempt) }
            )
            do {
                let response = try await exchange(
                    method,
                    handingBodyTo: handler,
                    limits: limits,
                    extraHeaders: file.rangeHeaders,
                    progress: progress.map { report in
                        { @Sendable value in report(Self.counting(file.resumedFrom, in: value)) }
                    }
                )
                let size = try file.finish()
                return DownloadedFile(
                    location: file.destination,
                    response: response,
                    size: size,
                    resumedBytes: file.resumedFrom
                )
            } catch is ApiError where !restarted && file.takeMismatch() {
                // The part on disk is of another version or range: the file starts again, once.
                restarted = true
                file.restart()
            } catch let error as ApiError where resumesLeft > 0 && error.allowsReconnection && file.canResume {
                resumesLeft -= 1
                file.pause()
            } catch {
                file.abandon()
                throw error
            }
        }
    }

    /// `progress` of a download with `kept` bytes already on disk, counted in.
    private static func counting(_ kept: Int64, in progress: TransferProgress) -> TransferProgress {
        guard progress.direction == .download, kept > 0 else { return progress }
        return TransferProgress(
            direction: .download,
            completedBytes: kept + progress.completedBytes,
            totalBytes: progress.totalBytes.map { kept + $0 }
        )
    }
}
