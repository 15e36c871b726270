public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The raw body with the media type and text encoding the server declared: an image, a PDF, a file
/// of any kind whose type decides what to do with it.
///
/// ```swift
/// struct DownloadAttachment: ApiMethod {
///     typealias Response = DataResponse
///     @Excluded var id: Int
///     var hostProviderKey: String { "api" }
///     var path: String { "/attachments/\(id)" }
/// }
///
/// let attachment = try await session.perform(DownloadAttachment(id: 3))
/// if attachment.mimeType == "application/pdf" { showPDF(attachment.data) }
/// ```
public struct DataResponse: ApiResponse, Hashable {
    /// The body bytes.
    public var data: Data
    /// The media type of the `Content-Type` field, lower-cased and without parameters, such as
    /// `image/png`; `nil` when the response has none.
    public var mimeType: String?
    /// The `charset` parameter of the `Content-Type` field, such as `utf-8`; `nil` when there is none.
    public var textEncodingName: String?

    /// Creates a response value.
    public init(data: Data, mimeType: String?, textEncodingName: String? = nil) {
        self.data = data
        self.mimeType = mimeType
        self.textEncodingName = textEncodingName
    }

    /// The body with the media type and charset of the response's `Content-Type`; never `nil`.
    public static func makeResponse(response: ResponseHead, data: Data) -> DataResponse? {
        let contentType = response.headers["Content-Type"]
        return DataResponse(
            data: data,
            mimeType: contentType.flatMap(MediaType.essence(of:)),
            textEncodingName: contentType.flatMap(MediaType.charset(of:))
        )
    }
}
