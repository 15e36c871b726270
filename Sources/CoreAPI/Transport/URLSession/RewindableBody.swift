import Foundation

/// A request body handed to FoundationNetworking as an `InputStream` that can be made again from its
/// first byte, so a request the engine sends again goes out whole.
///
/// libcurl sends a request again on a new connection when the kept-alive connection it reused dies
/// before any response, and asks FoundationNetworking to rewind the body first. FoundationNetworking
/// (6.3.1, `seekInputStream(to:)`) rewinds only a body stream, with a new stream it asks the task's
/// delegate for (`urlSession(_:task:needNewBodyStream:)`); for a body in memory or an upload from a
/// file it reports the rewind done without doing it, and the request goes out again with its whole
/// `Content-Length` and the body from where the first attempt stopped reading: a server that checks
/// gets the middle of the body, one that waits for the rest waits until a timeout. So on Linux
/// ``URLSessionTransport`` sends every body as a stream made here, with its length as
/// `Content-Length`, and the session delegate answers each rewind with ``makeStream()``
/// (`Docs/PlatformBehaviour.md`).
struct RewindableBody: Sendable {
    /// Where the bytes are.
    enum Source: Sendable {
        /// In memory.
        case data(Data)
        /// In a file, read from its start.
        case file(URL)
    }

    let source: Source
    /// The body's length in bytes, sent as `Content-Length`.
    let length: Int64

    /// The rewindable form of `body`; `nil` for no body, an empty one, or a stream (which the transport
    /// writes to a file first).
    ///
    /// A file's length is the one it has now: its stream gives that many bytes (``BoundedFileStream``).
    /// - Throws: ``ApiError/InvalidRequestReason/unreadableFile(path:)`` when the body file is missing,
    ///   not a regular file, or cannot be read: a stream of it would end at once, and the engine would
    ///   wait for the body its `Content-Length` promises.
    init?(_ body: ApiRequest.Body) throws(ApiError) {
        switch body {
        case .data(let data) where !data.isEmpty:
            source = .data(data)
            length = Int64(data.count)
        case .file(let file):
            length = try RequestBody.readableLength(of: file.url)
            source = .file(file.url)
        default:
            return nil
        }
    }

    /// A new stream of the whole body, not opened yet.
    func makeStream() -> InputStream? {
        switch source {
        case .data(let data): InputStream(data: data)
        case .file(let url): BoundedFileStream(url: url, length: length)
        }
    }

    /// Whether ``makeStream()`` still gives the whole body: always for one in memory; for a file, when
    /// it can still be read and still has the length sent as `Content-Length`.
    var isUnchanged: Bool {
        switch source {
        case .data: true
        case .file(let url): (try? RequestBody.readableLength(of: url)) == length
        }
    }
}
