public import Foundation

/// A file to upload as one part of a `multipart/form-data` body.
///
/// Declare properties of type `Attachment` or `[Attachment]` on a method that uses
/// ``MultipartFormDataEncoder``; each becomes a file part named after the property. The content is
/// either bytes in memory or a file on disk, which is streamed in chunks and never read whole.
///
/// ```swift
/// let avatar = Attachment(fileURL: URL(fileURLWithPath: "/tmp/me.png"))  // image/png, "me.png"
/// let notes = Attachment(data: Data("hello".utf8), filename: "notes.txt")  // text/plain
/// ```
public struct Attachment: Encodable, Sendable, Hashable {
    /// Where the bytes of an attachment come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A local file, read in chunks when the body is built.
        case file(URL)
    }

    /// The bytes of the part.
    public var content: Content
    /// The `filename` sent with the part.
    public var filename: String
    /// The part's `Content-Type`.
    public var mimeType: String

    /// An attachment of bytes in memory.
    /// - Parameters:
    ///   - data: The content.
    ///   - filename: The `filename` sent with the part.
    ///   - mimeType: The part's `Content-Type`; inferred from the filename's extension when `nil`.
    public init(data: Data, filename: String, mimeType: String? = nil) {
        self.content = .data(data)
        self.filename = filename
        self.mimeType = mimeType ?? Self.mimeType(forFilename: filename)
    }

    /// An attachment read from a local file when the body is built.
    /// - Parameters:
    ///   - fileURL: A `file:` URL.
    ///   - filename: The `filename` sent with the part; the URL's last path component when `nil`.
    ///   - mimeType: The part's `Content-Type`; inferred from the filename's extension when `nil`.
    public init(fileURL: URL, filename: String? = nil, mimeType: String? = nil) {
        let name = filename ?? fileURL.lastPathComponent
        self.content = .file(fileURL)
        self.filename = name
        self.mimeType = mimeType ?? Self.mimeType(forFilename: name)
    }

    /// The MIME type for a filename's extension (case-insensitive), or `application/octet-stream`.
    ///
    /// The table is built in, so the answer is the same on every platform.
    public static func mimeType(forFilename filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else {
            return "application/octet-stream"
        }
        let pathExtension = filename[filename.index(after: dot)...].lowercased()
        return mimeTypes[pathExtension] ?? "application/octet-stream"
    }

    /// Attachments are sent only by ``MultipartFormDataEncoder``; any other encoder fails with
    /// `EncodingError.invalidValue`.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self,
            EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "an Attachment can only be sent with MultipartFormDataEncoder"
            )
        )
    }

    private static let mimeTypes: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "ics": "text/calendar", "vcf": "text/vcard", "rtf": "application/rtf", "pdf": "application/pdf",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "heif": "image/heif", "avif": "image/avif", "svg": "image/svg+xml",
        "bmp": "image/bmp", "ico": "image/vnd.microsoft.icon", "tif": "image/tiff", "tiff": "image/tiff",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "flac": "audio/flac", "opus": "audio/opus", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo", "mpeg": "video/mpeg",
        "ogv": "video/ogg", "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "7z": "application/x-7z-compressed", "rar": "application/vnd.rar",
        "bz2": "application/x-bzip2", "xz": "application/x-xz", "wasm": "application/wasm",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "epub": "application/epub+zip",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "bin": "application/octet-stream",
    ]
}
