import CoreAPI
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `GET` with a secret in its query, to any host.
private struct SecretQuery: ApiMethod {
    typealias Response = Data
    let token: String
    var hostProviderKey: String { "closed" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/private")
    }
}

/// A loopback port nothing listens on: one the system handed out and that was closed again.
private func closedLoopbackPort() throws -> Int {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A connection that cannot be made says where it tried to go, over every transport.
@Suite(.timeLimit(.minutes(1)))
struct ConnectFailureTests {
    @Test(arguments: TestTransport.underTest)
    func aRefusedConnectionNamesTheHostAndPortAndNoSecret(transport: TestTransport) async throws {
        let port = try closedLoopbackPort()
        let session = transport.makeSession(
            hostProvider: DictionaryHostProvider(["closed": "http://127.0.0.1:\(port)"])
        )
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(SecretQuery(token: "SECRET-TOKEN"))
        }
        guard case .transport(let failure)? = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .cannotConnect)
        #expect(failure.host == "127.0.0.1")
        #expect(failure.port == port)
        let description = error?.description ?? ""
        #expect(description.hasPrefix("Transport failure: cannot connect to 127.0.0.1:\(port)"))
        #expect(!description.contains("SECRET"))
        #expect(!description.contains("/private"))
    }
}
