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

#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOSSL

    @testable import CoreAPIAsyncHTTPClient

    /// The trust options over the AsyncHTTPClient transport, which enforces them on Linux.
    @Suite(.timeLimit(.minutes(1)))
    struct AsyncHTTPClientTLSTrustTests {
        let certificates: TestCertificates

        init() throws {
            certificates = try TestCertificates.shared()
        }

        private func authority(_ name: String) throws -> TLSTrust.Certificate {
            try TLSTrust.Certificate(pem: String(decoding: try certificates.contents("\(name).pem"), as: UTF8.self))
        }

        private var identity: TLSTrust.ClientIdentity {
            get throws {
                TLSTrust.ClientIdentity(
                    pkcs12: try certificates.contents("client.p12"),
                    passphrase: TestCertificates.passphrase
                )
            }
        }

        /// Performs `TLSHello` over a new transport with `trust` against `server`.
        private func hello(_ trust: TLSTrust, at server: TLSFixtureServer) async throws -> TLSEcho {
            try await hello(over: try AsyncHTTPClientTransport(trust: trust), at: server)
        }

        /// Performs `TLSHello` over `transport` against `server`, then shuts the transport down.
        private func hello(
            over transport: AsyncHTTPClientTransport,
            at server: TLSFixtureServer
        ) async throws
            -> TLSEcho
        {
            let session = ApiSession(
                hostProvider: DictionaryHostProvider(["tls": server.baseURL]),
                transport: transport
            )
            do {
                let echo = try await session.perform(TLSHello())
                try await transport.shutdown()
                return echo
            } catch {
                try await transport.shutdown()
                throw error
            }
        }

        private func startServer(_ name: String = "server", requireClient: Bool = false) throws -> TLSFixtureServer {
            try TLSFixtureServer(
                certificate: certificates.path("\(name).pem"),
                key: certificates.path("\(name).key"),
                clientAuthority: requireClient ? certificates.path("ca.pem") : nil
            )
        }

        @Test func aServerOfATrustedAuthorityIsAccepted() async throws {
            let server = try startServer()
            defer { server.stop() }
            let echo = try await hello(TLSTrust(server: .certificates([try authority("ca")])), at: server)
            #expect(echo == TLSEcho(path: "/hello", client: nil))
        }

        @Test(arguments: ["system", "other-ca", "wrong-host"])
        func aServerOutsideTheTrustIsATLSFailure(case name: String) async throws {
            let server = try startServer(name == "wrong-host" ? "wrong-host" : "server")
            defer { server.stop() }
            let trust =
                name == "system"
                ? TLSTrust.system
                : TLSTrust(server: .certificates([try authority(name == "other-ca" ? "other-ca" : "ca")]))
            let error = await #expect(throws: ApiError.self) { try await hello(trust, at: server) }
            #expect(error == .transport(.init(kind: .tls, code: error?.transportCode)))
        }

        @Test func theClientCertificateIsPresentedWhenTheServerAsks() async throws {
            let server = try startServer(requireClient: true)
            defer { server.stop() }
            let trust = TLSTrust(server: .certificates([try authority("ca")]), clientIdentity: try identity)
            let echo = try await hello(trust, at: server)
            #expect(echo == TLSEcho(path: "/hello", client: "coreapi-client"))
        }

        @Test func withoutAClientCertificateAServerThatAsksRefusesTheCall() async throws {
            let server = try startServer(requireClient: true)
            defer { server.stop() }
            let error = await #expect(throws: ApiError.self) {
                try await hello(TLSTrust(server: .certificates([try authority("ca")])), at: server)
            }
            #expect(error?.category == "transport")
        }

        /// A server that offers only TLS 1.0 and 1.1 is refused, even through a configuration that allows
        /// them (NIOSSL's default minimum is TLS 1.0); the same trust reaches a TLS 1.2 server.
        @Test func aServerOfferingOnlyTLS11OrLowerIsRefused() async throws {
            let server = try TLSFixtureServer(
                certificate: certificates.path("server.pem"),
                key: certificates.path("server.key"),
                onlyOldTLS: true
            )
            defer { server.stop() }
            let trust = TLSTrust(server: .certificates([try authority("ca")]))
            #expect(try trust.makeTLSConfiguration().minimumTLSVersion == .tlsv12)
            var permissive = try trust.makeTLSConfiguration()
            permissive.minimumTLSVersion = .tlsv1
            #expect(AsyncHTTPClientTransport.securing(permissive, .enforced).minimumTLSVersion == .tlsv12)
            #expect(AsyncHTTPClientTransport.makeClientConfiguration().tlsConfiguration?.minimumTLSVersion == .tlsv12)
            for transport in [
                try AsyncHTTPClientTransport(trust: trust),
                AsyncHTTPClientTransport(tlsConfiguration: permissive),
                AsyncHTTPClientTransport(tlsConfiguration: permissive, certificateChecks: .insecureAsConfigured),
            ] {
                let error = await #expect(throws: ApiError.self) { try await hello(over: transport, at: server) }
                #expect(error == .transport(.init(kind: .tls)))
                #expect(error?.underlyingError != nil)
            }
            let modern = try startServer()
            defer { modern.stop() }
            #expect(
                try await hello(over: AsyncHTTPClientTransport(tlsConfiguration: permissive), at: modern).path
                    == "/hello"
            )
        }

        /// A configuration that checks no certificate is raised to full verification, unless the
        /// transport is made with the insecure option, which is what lets it through.
        @Test func certificateVerificationIsOffOnlyThroughTheInsecureOption() async throws {
            let server = try startServer()
            defer { server.stop() }
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            #expect(
                AsyncHTTPClientTransport.securing(unchecked, .enforced).certificateVerification == .fullVerification
            )
            let error = await #expect(throws: ApiError.self) {
                try await hello(over: AsyncHTTPClientTransport(tlsConfiguration: unchecked), at: server)
            }
            #expect(error == .transport(.init(kind: .tls)))
            let insecure = AsyncHTTPClientTransport(
                tlsConfiguration: unchecked,
                certificateChecks: .insecureAsConfigured
            )
            #expect(try await hello(over: insecure, at: server) == TLSEcho(path: "/hello", client: nil))
        }

        @Test func publicKeyPinsAndUnreadableIdentitiesAreRefusedWhenTheTransportIsMade() throws {
            #expect(
                throws: TLSTrust.Failure.unsupported(
                    transport: "AsyncHTTPClientTransport",
                    feature: "public-key pinning (its TLS configuration takes trusted roots, not a chain check)"
                )
            ) {
                try AsyncHTTPClientTransport(trust: TLSTrust(server: .publicKeys([try authority("ca")])))
            }
            let wrongPassphrase = TLSTrust.ClientIdentity(
                pkcs12: try certificates.contents("client.p12"),
                passphrase: "wrong"
            )
            #expect(throws: TLSTrust.Failure.invalidClientIdentity("the PKCS #12 archive could not be opened")) {
                try AsyncHTTPClientTransport(trust: TLSTrust(clientIdentity: wrongPassphrase))
            }
            #expect(throws: TLSTrust.Failure.invalidCertificate("certificate 1 is not a DER X.509 certificate")) {
                try AsyncHTTPClientTransport(
                    trust: TLSTrust(server: .certificates([TLSTrust.Certificate(der: Data([1, 2]))]))
                )
            }
        }
    }
#endif
