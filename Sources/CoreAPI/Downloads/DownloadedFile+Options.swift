public import Foundation

extension DownloadedFile {
    /// Where and how ``ApiSession/download(_:options:progress:)`` writes a response body.
    public struct Options: Sendable, Hashable {
        /// Where the finished file goes.
        public enum Destination: Sendable, Hashable {
            /// A new file in the temporary directory, which the caller then owns (moves or removes).
            case temporaryFile
            /// This file URL.
            case file(URL)
        }

        /// Where the finished file goes; ``Destination/temporaryFile`` by default.
        public var destination: Destination
        /// Whether an existing file at the destination is replaced; when `false` (the default), the download
        /// fails at once with ``ApiError/InvalidRequestReason/destinationExists(path:)`` and sends nothing.
        public var overwrite: Bool
        /// The largest body accepted, in bytes, counted on decoded bytes as they arrive (a resumed download
        /// counts what it had already); `nil` (the default) for none. More fails with
        /// ``ApiError/responseTooLarge(limit:)``. The session's in-memory limit does not apply to a download's
        /// body, only to the body of a status error.
        public var maximumSize: Int64?
        /// Whether a download that fails or is cancelled keeps what it received, for a later download to the
        /// same ``Destination/file(_:)`` to resume (with `Range` and `If-Range`); `false` by default, when
        /// the partial file is removed. Only a part that can be resumed is kept: received without a content
        /// coding, from a server that takes ranges, with a strong `ETag` or a strong `Last-Modified` (at
        /// least a second before the response's `Date`); otherwise, or with a ``Destination/temporaryFile``,
        /// nothing is kept.
        public var keepsPartialFile: Bool
        /// How many times one download resumes (or, when the part cannot be resumed and the method is
        /// idempotent, starts again) by itself after its connection dropped or went idle; 3 by default.
        public var resumeAttempts: Int
        /// The waits before those attempts; ``RetryPolicy/Backoff``'s defaults (half a second, doubling up to 30
        /// seconds, with jitter) unless set.
        public var resumeBackoff: RetryPolicy.Backoff

        /// Creates options.
        /// - Parameters:
        ///   - destination: Where the finished file goes.
        ///   - overwrite: Whether an existing file there is replaced.
        ///   - maximumSize: The largest body accepted, or `nil` for none.
        ///   - keepsPartialFile: Whether a failed or cancelled download keeps what it received, to resume.
        ///   - resumeAttempts: How many times a dropped connection is resumed within the call.
        ///   - resumeBackoff: The waits before those attempts.
        public init(
            destination: Destination = .temporaryFile,
            overwrite: Bool = false,
            maximumSize: Int64? = nil,
            keepsPartialFile: Bool = false,
            resumeAttempts: Int = 3,
            resumeBackoff: RetryPolicy.Backoff = RetryPolicy.Backoff()
        ) {
            self.destination = destination
            self.overwrite = overwrite
            self.maximumSize = maximumSize
            self.keepsPartialFile = keepsPartialFile
            self.resumeAttempts = resumeAttempts
            self.resumeBackoff = resumeBackoff
        }
    }
}
