import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Download: ApiMethod {
    typealias Response = DataResponse
    var hostProviderKey: String { "api" }
    var path: String { "/file" }
}

@Suite(.timeLimit(.minutes(1)))
struct DataResponseTests {
    @Test(
        arguments: [
            ("image/png", "image/png", nil), ("Text/HTML; Charset=\"UTF-8\"", "text/html", "utf-8"),
            ("application/json;charset=iso-8859-1", "application/json", "iso-8859-1"), (nil, nil, nil),
            ("nonsense", nil, nil),
        ] as [(String?, String?, String?)]
    )
    func theBodyComesWithItsMediaTypeAndCharset(
        contentType: String?,
        mimeType: String?,
        charset: String?
    )
        async throws
    {
        let transport = StubTransport()
        var headers = Headers()
        if let contentType { headers["Content-Type"] = contentType }
        transport.on("/file", reply: .data(Data([0x89, 0x50, 0x4E, 0x47]), headers: headers))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let file = try await session.perform(Download())
        #expect(
            file == DataResponse(data: Data([0x89, 0x50, 0x4E, 0x47]), mimeType: mimeType, textEncodingName: charset)
        )
    }
}
