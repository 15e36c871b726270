// RequestBody.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct PutAvatar: ApiMethod {
        typealias Response = EmptyResponse
        @Excluded var file: URL
        var overwrite = true
        var hostProviderKey: String { "api" }
        var httpMethod: HTTPMethod { .put }
        var path: String { "/me/avatar" }
        var body: RequestBody? { .file(file, contentType: "image/png") }
    }
    // PUT /me/avatar?overwrite=true, the PNG streamed from disk.
}
