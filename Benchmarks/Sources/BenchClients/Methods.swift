public import CoreAPI
public import CoreAPIJSON
public import Foundation

/// The host key of every benchmark method.
public let benchHostKey = "bench"

/// A host provider that maps ``benchHostKey`` to `baseURL`.
public func benchHosts(_ baseURL: String) -> DictionaryHostProvider {
    DictionaryHostProvider([benchHostKey: baseURL])
}

/// The tiny JSON object the loopback server and the mock answer with: `{"id":1,"name":"Ada","active":true}`.
public struct TinyUser: JSONApiResponse, Equatable {
    /// The user's identifier.
    public let id: Int
    /// The user's name.
    public let name: String
    /// Whether the user is active.
    public let active: Bool

    /// The value the fixed body decodes to.
    public static let expected = TinyUser(id: 1, name: "Ada", active: true)

    /// The fixed body.
    public static let body = #"{"id":1,"name":"Ada","active":true}"#
}

/// `GET /user` without parameters, decoded as a ``TinyUser``.
public struct GetTinyUser: ApiMethod {
    /// The decoded user.
    public typealias Response = TinyUser

    /// Creates the method.
    public init() {}

    /// ``benchHostKey``.
    public var hostProviderKey: String { benchHostKey }

    /// `/user` on the bench host.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/user")
    }

    /// No parameters.
    public func encode(to encoder: any Encoder) throws {}
}

/// A note as the loopback server sends it for `GET /notes/...`: `{"id":1,"title":"Ada","tags":["on"]}`,
/// the `Note` of the OpenAPI document CoreAPI's generated test client comes from.
public struct BenchNote: JSONApiResponse, Equatable {
    /// The note's identifier.
    public let id: Int
    /// The note's title.
    public let title: String
    /// The note's tags.
    public let tags: [String]
}

/// `GET /notes/1`, decoded as a ``BenchNote``: the operation `getNote` of the generated client, as a
/// CoreAPI method.
public struct GetNote: ApiMethod {
    /// The decoded note.
    public typealias Response = BenchNote

    /// Creates the method.
    public init() {}

    /// ``benchHostKey``.
    public var hostProviderKey: String { benchHostKey }

    /// `/notes/1` on the bench host.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/notes/1")
    }

    /// No parameters.
    public func encode(to encoder: any Encoder) throws {}
}

/// `GET /bytes/N`: `size` bytes of `application/octet-stream` (1 MiB of a fixed pattern, repeated).
public struct GetBytes: ApiMethod {
    /// The body, when collected.
    public typealias Response = Data

    /// The body size asked for.
    public var size: Int

    /// A method asking for `size` bytes.
    public init(size: Int) {
        self.size = size
    }

    /// ``benchHostKey``.
    public var hostProviderKey: String { benchHostKey }

    /// `/bytes/<size>` on the bench host.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/bytes/\(size)")
    }

    /// No parameters.
    public func encode(to encoder: any Encoder) throws {}
}

/// What the server answers to an upload: the number of body bytes it received.
public struct UploadReceipt: JSONApiResponse {
    /// The body bytes the server read, multipart framing included.
    public let received: Int
}

/// `POST /upload` of a note and one file as `multipart/form-data`.
///
/// Bodies over the encoder's streaming threshold (10 MiB) are written to a temporary file in
/// `temporaryDirectory` and uploaded from it.
public struct MultipartUpload: ApiMethod {
    /// The server's receipt.
    public typealias Response = UploadReceipt

    /// A text field sent before the file.
    public let note: String
    /// The file part.
    public let file: Attachment
    /// Where the encoder writes the temporary body file.
    public let temporaryDirectory: URL

    /// Creates the upload of `file`, with the temporary body file in `temporaryDirectory`.
    public init(note: String, file: Attachment, temporaryDirectory: URL) {
        self.note = note
        self.file = file
        self.temporaryDirectory = temporaryDirectory
    }

    /// ``benchHostKey``.
    public var hostProviderKey: String { benchHostKey }
    /// `POST`.
    public var httpMethod: HTTPMethod { .post }
    /// Multipart, streamed through a temporary file in ``temporaryDirectory``.
    public var parametersEncoding: any ParametersEncoding {
        MultipartFormDataEncoder(temporaryDirectory: temporaryDirectory)
    }
    /// Ten minutes for the whole exchange instead of the session's 60 s, ample for 1 GiB on loopback.
    public var options: CallOptions { CallOptions(deadline: .seconds(600)) }

    /// `/upload` on the bench host.
    public func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/upload")
    }

    /// The encoded fields: the note and the file, not the directory.
    private enum CodingKeys: String, CodingKey {
        case note, file
    }
}
