public import Foundation

/// An HTTP request as CoreAPI sends it: a method, a URL, header fields and a body.
///
/// The session builds one from an ``ApiMethod``, the middlewares receive and may change it, and the
/// transport sends it. It is made of CoreAPI's own types, so no engine has to translate a Foundation
/// request it does not use: ``URLSessionTransport`` converts it to a `URLRequest` inside `send`, and
/// the AsyncHTTPClient transport builds its own request from the same fields. Repeated header fields
/// stay separate fields, in order.
///
/// ```swift
/// var request = ApiRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
/// request.headers.set("application/json", for: "Content-Type")
/// request.body = .data(Data(#"{"name":"pen"}"#.utf8))
/// ```
///
/// To hand it to Foundation code, use the bridge `URLRequest(_:)`.
public struct ApiRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The URL, query included.
    public var url: URL
    /// The header fields, in order, repeated names kept as separate fields.
    public var headers: Headers
    /// The body.
    public var body: Body
    /// A body the session writes to a temporary file for each attempt, when it is sent.
    var pendingBodyFile: PendingBodyFile?

    /// Creates a request.
    /// - Parameters:
    ///   - method: The request method; `GET` by default.
    ///   - url: The URL, query included.
    ///   - headers: The header fields.
    ///   - body: The body; none by default.
    public init(method: HTTPMethod = .get, url: URL, headers: Headers = Headers(), body: Body = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// What a request sends after its head.
    public enum Body: Sendable, Hashable {
        /// No body.
        case none
        /// A body held in memory.
        case data(Data)
        /// A body streamed from a file, never read into memory whole.
        case file(File)
        /// A body read from an async sequence of chunks, made afresh each time the request is sent (see
        /// ``Stream``). Two such bodies are equal only when they hold the same stream value.
        ///
        /// ``URLSessionTransport`` writes it to a temporary file and uploads that; the AsyncHTTPClient
        /// transport streams it as it is produced.
        case stream(Stream)

        /// The body's bytes when they are in memory; `nil` for none, a file or a stream.
        public var data: Data? {
            if case .data(let data) = self { return data }
            return nil
        }

        /// The body's file; `nil` when the body is in memory, a stream or absent.
        public var file: File? {
            if case .file(let file) = self { return file }
            return nil
        }

        /// The body's stream; `nil` when the body is in memory, in a file or absent.
        public var stream: Stream? {
            if case .stream(let stream) = self { return stream }
            return nil
        }

        /// The body's length in bytes: `0` for none, and for a stream whose length is unknown.
        public var length: Int64 {
            switch self {
            case .none: 0
            case .data(let data): Int64(data.count)
            case .file(let file): file.length
            case .stream(let stream): stream.length ?? 0
            }
        }
    }

    /// A file that holds a request body.
    public struct File: Sendable, Hashable {
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
        /// - Parameters:
        ///   - url: The file's location.
        ///   - length: The body length in bytes.
        ///   - isTemporary: Whether CoreAPI removes the file once the request has ended.
        public init(url: URL, length: Int64, isTemporary: Bool = false) {
            self.url = url
            self.length = length
            self.isTemporary = isTemporary
        }
    }

    /// Removes the body file when it is temporary — at once, or as soon as no transport reads it any
    /// more.
    func discardTemporaryFile() {
        if let file = body.file, file.isTemporary {
            TemporaryBodyFiles.discard(file.url)
        }
    }
}

extension ApiRequest: Equatable {
    /// Whether two requests have the same method, URL, header fields (in order) and body. Streamed
    /// bodies are equal only when they are the same ``Stream`` value: their bytes are not read.
    public static func == (lhs: ApiRequest, rhs: ApiRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers && lhs.body == rhs.body
    }
}

extension ApiRequest: CustomStringConvertible {
    /// The method and the URL, such as `GET https://api.example.com/items`; no header or body, so no
    /// secret.
    public var description: String { "\(method.rawValue) \(url.absoluteString)" }
}
