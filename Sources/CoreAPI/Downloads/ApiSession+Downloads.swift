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
    ///     options: DownloadedFile.Options(destination: .file(exportURL), overwrite: true)
    /// )
    /// print(file.size, file.location.path)
    /// ```
    ///
    /// The call goes through the middlewares, redirects and status checks like any other; a status the
    /// method does not accept throws as ``perform(_:options:progress:)`` would, and nothing is written.
    ///
    /// **Resuming.** CoreAPI resumes the body itself with `Range` and `If-Range`, never through the
    /// engine's resume data or task suspension: after a dropped or idle connection within the call
    /// (``DownloadedFile/Options/resumeAttempts``, waiting ``DownloadedFile/Options/resumeBackoff`` before each), and in
    /// a later call to the same destination when ``DownloadedFile/Options/keepsPartialFile`` kept the part. The
    /// request asks for `Accept-Encoding: identity`, since a range counts bytes of the representation
    /// and the file holds decoded ones. Only what can be continued byte for byte is resumed: a part
    /// received without a content coding, from a server that sends `Accept-Ranges: bytes`, with a strong
    /// validator for `If-Range` (a strong `ETag`, else a `Last-Modified` at least one second before the
    /// response's `Date`, RFC 9110 §13.1.5). Any other part is started again after a dropped connection
    /// when the method is idempotent (see ``RetryPolicy/idempotentMethods``), and is never kept.
    ///
    /// A server that answers a range request with the whole body (the file changed) starts the file
    /// again. A `206` whose `Content-Range` starts elsewhere than the part ends, or that has a content
    /// coding, is never appended: the file starts again, once, and a second such answer throws
    /// ``ApiError/TransportFailure/Kind/badResponse``. A `416` whose `Content-Range: bytes */N` names the
    /// size of the part ends the download with the part as the file (``DownloadedFile/head`` is that
    /// `416`); any other `416` starts the file again.
    ///
    /// Only the method's own ``CallOptions/deadline`` ends a download, not the session's default one: the
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
        options: DownloadedFile.Options = DownloadedFile.Options(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        guard isValid else {
            throw ApiError.invalidRequest(.sessionInvalidated)
        }
        let file = try DownloadFile(options: options)
        let settings = settings(for: method)
        let acceptable = settings.acceptableStatusCodes
        let limits: StreamedResponse.Limits = settings.deadline == nil ? .unlimited : .method
        let restartable = method.httpMethod.isIdempotent
        var resumes = 0
        var restarted = false
        while true {
            // Each exchange writes as an attempt of its own: one given up cannot write into the next.
            let attempt = file.currentAttempt
            let handler = TransportOptions.BodyHandler(
                accepts: { response in
                    if response.statusCode == 416, try file.completes(with: response, attempt: attempt) {
                        return true
                    }
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
                    extraHeaders: file.requestHeaders,
                    progress: progress.map { report in
                        { @Sendable value in report(Self.counting(file.resumedFrom, in: value)) }
                    }
                )
                let size = try file.finish()
                return DownloadedFile(
                    location: file.destination,
                    head: response,
                    size: size,
                    resumedBytes: file.resumedFrom
                )
            } catch is ApiError where !restarted && file.takeMismatch() {
                // The part on disk is of another version or range: the file starts again, once.
                restarted = true
                file.restart()
            } catch let error as ApiError
                where resumes < options.resumeAttempts && error.allowsReconnection
                && (file.canResume || restartable && file.hasStarted)
            {
                resumes += 1
                if file.canResume {
                    file.pause()
                } else {
                    file.restart()  // a part that cannot be continued byte for byte
                }
                do {
                    try await RetryPolicy.Backoff.sleep(options.resumeBackoff.delay(beforeRetry: resumes))
                } catch {
                    file.abandon()
                    throw ApiError.cancelled
                }
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
