public import Foundation

/// A finished download, from ``ApiSession/download(_:options:progress:)``.
public struct DownloadedFile: Sendable {
    /// Where the file is; the caller owns it.
    public let location: URL
    /// The response the last part of the body came with: `200`, or `206` for a resumed download, or
    /// `416` when a kept part turned out to be the whole file.
    public let head: ResponseHead
    /// The file's size in bytes.
    public let size: Int64
    /// How many of those bytes were kept from an earlier attempt — a dropped connection, or an earlier
    /// download that kept its partial file — rather than received with ``head``.
    public let resumedBytes: Int64

    /// The status code of ``head``.
    public var statusCode: Int { head.statusCode }

    /// The header fields of ``head``.
    public var headers: Headers { head.headers }
}
