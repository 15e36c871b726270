import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Raw: ApiMethod {
    typealias Response = Data
    var path: String
    var hostProviderKey: String { "fixture" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }
    func encode(to encoder: any Encoder) throws {}
}

@Test(.timeLimit(.minutes(1))) func experiment() async throws {
    let server = try FixtureServer.shared()
    let session = ApiSession(hostProvider: server.hosts)
    for path in ["/basic-auth", "/gzip", "/echo/x", "/status/500"] {
        do {
            let data = try await session.perform(Raw(path: path))
            print(path, "OK", String(decoding: data, as: UTF8.self).prefix(300))
        } catch {
            print(path, "ERR", error)
            if case .unauthorized(let f) = error as? ApiError { print(f.headers.redactedDescription) }
        }
    }
}
