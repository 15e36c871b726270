import Foundation

/// A stream of the first `length` bytes of a file, for a body FoundationNetworking reads as a stream.
///
/// libcurl frames a body stream by the `Content-Length` field the transport sends, and reads the stream to
/// its end: a file that grew since its length was taken would put bytes past the body on the connection,
/// where the server reads them as the start of the next request. So the stream ends at `length`, as an
/// upload from the file did (libcurl stopped at the length it was given). A file that ends sooner fails
/// the read, and the engine ends the transfer at once instead of waiting for bytes that never come.
///
/// Only `read(_:maxLength:)` and `hasBytesAvailable` are its own; opening, closing and the status are
/// the file stream's.
final class BoundedFileStream: InputStream {
    /// The bytes still to give.
    private var remaining: Int64

    /// A stream of the first `length` bytes of the file at `url`; `nil` when no stream can be made.
    init?(url: URL, length: Int64) {
        remaining = length
        super.init(url: url)
    }

    /// Whether bytes are left to give: FoundationNetworking ends the body when there are none, and
    /// otherwise reads, which fails for a file that ended sooner.
    override var hasBytesAvailable: Bool {
        remaining > 0
    }

    /// Reads up to `len` bytes, never past `length`; `-1` when the file ends, or cannot be read, before.
    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard remaining > 0 else { return 0 }
        let count = super.read(buffer, maxLength: Int(min(Int64(len), remaining)))
        guard count > 0 else { return -1 }
        remaining -= Int64(count)
        return count
    }
}
