import Foundation

/// Streamed request bodies over FoundationNetworking, which takes no async sequence as a body and
/// frames a body stream of unknown length as chunked (see `Docs/PlatformBehaviour.md`): each send writes
/// the stream to a temporary file and sends that file with its length (on Linux as a stream of the file
/// that can be made again, see `RewindableBody`).
extension URLSessionTransport {
    /// Writes a fresh iteration of `stream` to a new temporary file, for one exchange alone.
    ///
    /// The writing stops as soon as `control` ends (a cancel, the idle timeout, the deadline) or the
    /// calling task is cancelled, even while the sequence is waiting for its next chunk; each chunk
    /// counts as activity. The stream itself checks its declared length: a stream that runs past it is
    /// stopped at that chunk, not written to its end. The file is removed when writing fails.
    /// - Returns: The file, temporary and written for this exchange alone.
    /// - Throws: ``ApiError/cancelled`` or ``ApiError/timeout`` when ended; the stream's
    ///   ``ApiError/invalidRequest(_:)`` (a length mismatch, a failed sequence); an
    ///   ``ApiError/InvalidRequestReason/encoding(_:)`` when the file cannot be written.
    static func spool(_ stream: ApiRequest.Stream, control: ExchangeControl) async throws -> ApiRequest.File {
        let url = TemporaryFileName.streamedBody.makeURL(in: FileManager.default.temporaryDirectory)
        let writer = Task { try await write(stream, to: url, control: control) }
        control.onEnd { _ in writer.cancel() }
        do {
            let length = try await withTaskCancellationHandler {
                try await writer.value
            } onCancel: {
                writer.cancel()
            }
            var file = ApiRequest.File(url: url, length: length, isTemporary: true)
            file.isWrittenForOneAttempt = true
            return file
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let reason = control.endReason {
                throw reason
            }
            if Task.isCancelled || error is CancellationError {
                throw ApiError.cancelled
            }
            throw ApiError(error)
        }
    }

    /// Writes `stream` to a new file at `url` and returns its length.
    private static func write(
        _ stream: ApiRequest.Stream,
        to url: URL,
        control: ExchangeControl
    ) async throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ApiError.invalidRequest(.encoding("cannot create a temporary file at \(url.path)"))
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var sink = FileSink(handle: handle)
        var length: Int64 = 0
        for try await chunk in stream {
            try Task.checkCancellation()
            control.touch()
            try sink.write(chunk)
            length += Int64(chunk.count)
        }
        // A sequence may end early when it is cancelled: what it produced is not the body.
        try Task.checkCancellation()
        try sink.flush()
        return length
    }
}
