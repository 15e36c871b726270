public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A request with its parameters encoded: the body is in ``request`` or, for large uploads, in ``bodyFile``.
public struct EncodedRequest: Sendable {
    /// A file that holds the request body.
    public struct BodyFile: Sendable, Hashable {
        /// The file's location.
        public var url: URL
        /// The body length in bytes.
        public var length: Int64
        /// Whether the file was made for this request alone and is removed once the request ends
        /// (success, failure or cancellation) and no transport reads it any more.
        public var isTemporary: Bool
        /// Whether the session wrote the file for one attempt alone: only such a file may be cut short
        /// when its upload is ended (see `SessionDelegate`), since no later attempt reads it.
        var isWrittenForOneAttempt = false

        /// Creates a body file description.
        public init(url: URL, length: Int64, isTemporary: Bool) {
            self.url = url
            self.length = length
            self.isTemporary = isTemporary
        }
    }

    /// The request; its `httpBody` is `nil` when ``bodyFile`` is set.
    public var request: URLRequest
    /// The file to upload the body from, or `nil` when the body (if any) is in ``request``.
    public var bodyFile: BodyFile?
    /// A body that the session writes to a temporary file for each attempt, when it is sent.
    var pendingBodyFile: PendingBodyFile?

    /// Creates an encoded request.
    public init(request: URLRequest, bodyFile: BodyFile? = nil) {
        self.request = request
        self.bodyFile = bodyFile
    }

    /// Removes the body file when it is temporary — at once, or as soon as no transport reads it any
    /// more; call this when the request will not be sent again.
    public func discardTemporaryFile() {
        if let bodyFile, bodyFile.isTemporary {
            TemporaryBodyFiles.discard(bodyFile.url)
        }
    }
}
