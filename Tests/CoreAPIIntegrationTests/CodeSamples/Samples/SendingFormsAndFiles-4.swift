// SendingFormsAndFiles.md, sample 4.
import CoreAPI
import Foundation

struct UploadAuditLog: ApiMethod {
    typealias Response = EmptyResponse
    @Excluded var entries: [String]
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var body: RequestBody? {
        let entries = entries
        return .stream(contentType: "text/plain; charset=utf-8") {
            AsyncStream { continuation in
                for entry in entries {
                    continuation.yield(Data((entry + "\n").utf8))
                }
                continuation.finish()
            }
        }
    }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/audit")
    }
}
