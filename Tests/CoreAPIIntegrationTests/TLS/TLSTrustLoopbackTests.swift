import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the TLS fixture answers: the path and the client certificate's common name.
struct TLSEcho: JsonApiResponse, Equatable {
    var path: String
    var client: String?
}

/// `GET /hello` on the TLS fixture.
struct TLSHello: ApiMethod {
    typealias Response = TLSEcho
    var hostProviderKey: String { "tls" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/hello")
    }
}

/// Trust decisions against a loopback HTTPS server whose certificates are made when the tests run.
@Suite(.timeLimit(.minutes(1)))
struct TLSTrustLoopbackTests {
    @Test func theSystemRootsDoNotTrustAPrivateAuthority() async throws {
        let certificates = try TestCertificates.shared()
        let server = try TLSFixtureServer(
            certificate: certificates.path("server.pem"),
            key: certificates.path("server.key")
        )
        defer { server.stop() }
        let session = ApiSession(hostProvider: DictionaryHostProvider(["tls": server.baseURL]))
        defer { session.invalidate() }
        let error = await #expect(throws: ApiError.self) { try await session.perform(TLSHello()) }
        #expect(error == .transport(.init(kind: .tls, code: error?.transportCode)))
    }
}

extension ApiError {
    /// The engine's code of a transport failure, which the tests do not pin.
    var transportCode: Int? {
        if case .transport(let failure) = self { failure.code } else { nil }
    }
}
