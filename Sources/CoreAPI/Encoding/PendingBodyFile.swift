import Foundation

/// A multipart body that is written to its temporary file only when a transport sends the request.
///
/// ``ApiSession`` writes it for each attempt, after the middleware chain: a mock that answers never
/// pays for it, a cancelled call stops the copy, and a retried upload sends a file of its own (on Linux
/// the file of an upload that was ended is cut to zero bytes; see `SessionDelegate`).
struct PendingBodyFile: Sendable {
    /// The encoder, for its temporary directory and chunk size.
    let encoder: MultipartFormDataEncoder
    let parts: [MultipartFormDataEncoder.Part]
    /// The boundary the request's `Content-Type` announces.
    let boundary: String

    /// Writes the body to a new temporary file and points `request` at it: the `Content-Type` and
    /// `Content-Length` get the boundary used, a new one if the announced one occurs in a part.
    /// - Parameter shouldStop: Checked between chunks; when it says so, the file is removed and
    ///   ``ApiError/cancelled`` thrown.
    func write(
        into request: inout ApiRequest,
        shouldStop: () -> Bool = { Task.isCancelled }
    ) throws -> ApiRequest.File {
        var (file, used) = try encoder.writeTemporaryFile(parts, boundary: boundary, shouldStop: shouldStop)
        file.isWrittenForOneAttempt = true
        if used != boundary {
            request.headers.set("multipart/form-data; boundary=\(used)", for: "Content-Type")
            request.headers.set(String(file.length), for: "Content-Length")
        }
        return file
    }
}
