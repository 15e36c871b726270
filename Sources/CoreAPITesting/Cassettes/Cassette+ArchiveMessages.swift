import Foundation

extension Cassette.Archive {
    /// A request as an archive keeps it.
    public struct Request: Sendable, Hashable, Codable {
        /// The method, such as `GET`.
        public var method: String
        /// The absolute URL, query included.
        public var url: String
        /// The protocol version, such as `HTTP/1.1`.
        public var httpVersion: String
        /// The cookies the request sent, as exporters list them; CoreAPI writes none, and its cassettes keep
        /// the `Cookie` field redacted instead.
        public var cookies: [Field]
        /// The header fields, in order, repeated names apart; an HTTP/2 export's pseudo-header fields
        /// (`:authority`, `:path`…) included.
        public var headers: [Field]
        /// The query's parameters, in order.
        public var queryString: [Field]
        /// The body, when there is one.
        public var postData: PostData?
        /// The head's size in bytes, or `-1`.
        public var headersSize: Int
        /// The body's size in bytes, or `-1`.
        public var bodySize: Int

        /// Creates a request.
        /// - Parameters:
        ///   - method: The method.
        ///   - url: The absolute URL.
        ///   - headers: The header fields.
        ///   - queryString: The query's parameters.
        ///   - postData: The body.
        ///   - bodySize: The body's size, or `-1`.
        public init(
            method: String,
            url: String,
            headers: [Field] = [],
            queryString: [Field] = [],
            postData: PostData? = nil,
            bodySize: Int = 0
        ) {
            self.method = method
            self.url = url
            httpVersion = "HTTP/1.1"
            cookies = []
            self.headers = headers
            self.queryString = queryString
            self.postData = postData
            headersSize = -1
            self.bodySize = bodySize
        }

        /// Reads a request; missing lists are empty and missing sizes `-1`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            url = try container.decode(String.self, forKey: .url)
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? ""
            cookies = try container.decodeIfPresent([Field].self, forKey: .cookies) ?? []
            headers = try container.decodeIfPresent([Field].self, forKey: .headers) ?? []
            queryString = try container.decodeIfPresent([Field].self, forKey: .queryString) ?? []
            postData = try container.decodeIfPresent(PostData.self, forKey: .postData)
            headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }
    }

    /// A request body as an archive keeps it: text, form parameters, or a digest of a body too large to
    /// keep.
    public struct PostData: Sendable, Hashable, Codable {
        /// The body's media type.
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` is `base64`; `nil` when an exporter kept only
        /// ``params``, or the body is kept as a digest.
        public var text: String?
        /// The form parameters an exporter listed instead of, or besides, the text.
        public var params: [Field]?
        /// `base64` when ``text`` holds a binary body in base64 (a vendor field, `_encoding`).
        public var encoding: String?
        /// The SHA-256 of a body too large to keep, in hexadecimal (a vendor field, `_sha256`).
        public var sha256: String?

        /// Creates a request body.
        /// - Parameters:
        ///   - mimeType: The media type.
        ///   - text: The body's text, or its base64 for a binary body.
        ///   - encoding: `base64` for a binary body.
        ///   - sha256: The digest of a body kept only as a digest.
        public init(mimeType: String, text: String?, encoding: String? = nil, sha256: String? = nil) {
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.sha256 = sha256
        }

        /// Reads a body; an `encoding` field without the underscore is read too.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text)
            params = try container.decodeIfPresent([Field].self, forKey: .params)
            let plain = try decoder.container(keyedBy: PlainKeys.self)
            encoding =
                try container.decodeIfPresent(String.self, forKey: .encoding)
                ?? plain.decodeIfPresent(String.self, forKey: .encoding)
            sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
        }

        enum CodingKeys: String, CodingKey {
            case mimeType, text, params
            case encoding = "_encoding"
            case sha256 = "_sha256"
        }

        private enum PlainKeys: String, CodingKey {
            case encoding
        }
    }

    /// A response as an archive keeps it.
    public struct Response: Sendable, Hashable, Codable {
        /// The status code.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// The protocol version.
        public var httpVersion: String
        /// The cookies the response set, as exporters list them; CoreAPI writes none.
        public var cookies: [Field]
        /// The header fields, in order, repeated names apart.
        public var headers: [Field]
        /// The body.
        public var content: Content
        /// The `Location` field's target, or empty.
        public var redirectURL: String
        /// The head's size in bytes, or `-1`.
        public var headersSize: Int
        /// The body's size on the wire in bytes, or `-1`.
        public var bodySize: Int

        /// Creates a response.
        /// - Parameters:
        ///   - status: The status code.
        ///   - statusText: The reason phrase.
        ///   - headers: The header fields.
        ///   - content: The body.
        ///   - redirectURL: The `Location` target, or empty.
        public init(
            status: Int,
            statusText: String = "",
            headers: [Field] = [],
            content: Content,
            redirectURL: String = ""
        ) {
            self.status = status
            self.statusText = statusText
            httpVersion = "HTTP/1.1"
            cookies = []
            self.headers = headers
            self.content = content
            self.redirectURL = redirectURL
            headersSize = -1
            bodySize = -1
        }

        /// Reads a response; missing lists are empty and missing sizes `-1`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? ""
            cookies = try container.decodeIfPresent([Field].self, forKey: .cookies) ?? []
            headers = try container.decodeIfPresent([Field].self, forKey: .headers) ?? []
            content = try container.decodeIfPresent(Content.self, forKey: .content) ?? Content(mimeType: "", text: "")
            redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
            headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }
    }

    /// A response body as an archive keeps it: decoded from any content coding, as text or base64, or as a
    /// digest of a body too large to keep.
    public struct Content: Sendable, Hashable, Codable {
        /// The decoded body's size in bytes (exporters differ here: some count the encoded bytes; CoreAPI
        /// reads the body from ``text`` alone).
        public var size: Int
        /// The bytes a content coding saved, when an exporter says.
        public var compression: Int?
        /// The body's media type.
        public var mimeType: String
        /// The body as text, or in base64 when ``encoding`` is `base64`; `nil` when it was not kept.
        public var text: String?
        /// `base64` when ``text`` holds a binary body in base64.
        public var encoding: String?
        /// The SHA-256 of a body too large to keep, in hexadecimal (a vendor field, `_sha256`).
        public var sha256: String?
        /// The sizes of the pieces a streamed body arrived in, in order (a vendor field, `_chunkSizes`);
        /// a replay hands the body on in pieces of these sizes.
        public var chunkSizes: [Int]?

        /// Creates a response body.
        /// - Parameters:
        ///   - size: The decoded size; the text's when left out.
        ///   - mimeType: The media type.
        ///   - text: The body's text, or its base64 for a binary body.
        ///   - encoding: `base64` for a binary body.
        ///   - sha256: The digest of a body kept only as a digest.
        ///   - chunkSizes: The sizes of a streamed body's pieces.
        public init(
            size: Int? = nil,
            mimeType: String,
            text: String?,
            encoding: String? = nil,
            sha256: String? = nil,
            chunkSizes: [Int]? = nil
        ) {
            self.size = size ?? text?.utf8.count ?? 0
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
            self.sha256 = sha256
            self.chunkSizes = chunkSizes
        }

        /// Reads a body; a missing size is `0`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decodeIfPresent(Int.self, forKey: .size) ?? 0
            compression = try container.decodeIfPresent(Int.self, forKey: .compression)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text)
            encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
            sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
            chunkSizes = try container.decodeIfPresent([Int].self, forKey: .chunkSizes)
        }

        enum CodingKeys: String, CodingKey {
            case size, compression, mimeType, text, encoding
            case sha256 = "_sha256"
            case chunkSizes = "_chunkSizes"
        }
    }
}
