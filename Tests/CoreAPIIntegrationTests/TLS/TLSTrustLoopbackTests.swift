import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the TLS fixture answers: the path and the client certificate's common name.
struct TLSEcho: JSONApiResponse, Equatable {
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

    /// The key a pin is compared with is the certificate's SubjectPublicKeyInfo, byte for byte what
    /// `openssl pkey -pubin -outform der` writes, and its digest is the one `openssl dgst` makes.
    @Test(arguments: ["server", "backup"])
    func thePinnedKeyOfACertificateIsItsSubjectPublicKeyInfo(name: String) throws {
        let certificates = try TestCertificates.shared()
        let certificate = try TLSTrust.Certificate(
            pem: String(decoding: try certificates.contents("\(name).pem"), as: UTF8.self)
        )
        let key = try #require(certificate.subjectPublicKeyInfo)
        #expect(key == [UInt8](try certificates.contents("\(name).spki")))
        let digests = try TLSTrust(server: .publicKeys([certificate])).pinnedKeyDigests()
        #expect(digests == [[UInt8](try certificates.contents("\(name).sha256"))])
        #expect(try TLSTrust(server: .publicKeySHA256([try certificates.pin(name)])).pinnedKeyDigests() == digests)
    }

    @Test func unreadablePinsAreRefused() {
        #expect(throws: TLSTrust.Failure.invalidPin("pin 2 is not the base64 of a SHA-256 digest")) {
            try TLSTrust(server: .publicKeySHA256([String(repeating: "A", count: 43) + "=", "c2hvcnQ="]))
                .pinnedKeyDigests()
        }
        #expect(throws: TLSTrust.Failure.invalidPin("no key is pinned")) {
            try TLSTrust(server: .publicKeySHA256([])).pinnedKeyDigests()
        }
        #expect(throws: TLSTrust.Failure.invalidCertificate("certificate 1 is not a DER X.509 certificate")) {
            try TLSTrust(server: .publicKeys([TLSTrust.Certificate(der: Data([0x30, 0x03, 0x30, 0x01, 0x02]))]))
                .pinnedKeyDigests()
        }
        #expect(TLSTrust.Failure.pinMismatch(host: "api.example").description.contains("api.example"))
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
            at server: TLSFixtureServer,
            options: CallOptions? = nil
        ) async throws
            -> TLSEcho
        {
            let session = ApiSession(
                hostProvider: DictionaryHostProvider(["tls": server.baseURL]),
                transport: transport
            )
            do {
                let echo = try await session.perform(TLSHello(), options: options)
                try await transport.shutdown()
                return echo
            } catch {
                try await transport.shutdown()
                throw error
            }
        }

        private func startServer(
            _ name: String = "server",
            key: String? = nil,
            requireClient: Bool = false
        ) throws -> TLSFixtureServer {
            try TLSFixtureServer(
                certificate: certificates.path("\(name).pem"),
                key: certificates.path("\(key ?? name).key"),
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
            #expect(error?.category == .network)
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

        /// Pins of the test CA's servers: the CA is the only root, and the keys of `names` are pinned.
        private func pinning(_ names: [String]) throws -> TLSTrust {
            TLSTrust(server: .publicKeySHA256(try names.map(certificates.pin), roots: [try authority("ca")]))
        }

        @Test func aServerWithAPinnedKeyIsAccepted() async throws {
            let server = try startServer()
            defer { server.stop() }
            #expect(try await hello(try pinning(["server"]), at: server) == TLSEcho(path: "/hello", client: nil))
        }

        /// The certificate renewed with the backup key passes while both keys are pinned.
        @Test func aRotatedKeyWithABackupPinIsAccepted() async throws {
            let server = try startServer("backup")
            defer { server.stop() }
            let echo = try await hello(try pinning(["server", "backup"]), at: server)
            #expect(echo == TLSEcho(path: "/hello", client: nil))
        }

        /// A valid chain with another key ends the call with the pin mismatch, at once: the pool does not
        /// retry the connection until the deadline.
        @Test func aKeyThatIsNotPinnedEndsTheCallWithAPinMismatch() async throws {
            let server = try startServer("backup")
            defer { server.stop() }
            let transport = try AsyncHTTPClientTransport(trust: try pinning(["server"]))
            let started = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await hello(
                    over: transport,
                    at: server,
                    options: CallOptions(timeout: .seconds(30), deadline: .seconds(30))
                )
            }
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(error == .transport(.init(kind: .tls)))
            guard case .transport(let failure) = error else { return }
            #expect(failure.cause as? TLSTrust.Failure == .pinMismatch(host: "127.0.0.1"))
            #expect(failure.host == "127.0.0.1")
        }

        /// The pin adds to the validation: an expired certificate is refused though its key is pinned.
        @Test func anExpiredCertificateWithAPinnedKeyIsRefused() async throws {
            let server = try startServer("expired", key: "server")
            defer { server.stop() }
            let error = await #expect(throws: ApiError.self) { try await hello(try pinning(["server"]), at: server) }
            #expect(error == .transport(.init(kind: .tls)))
            guard case .transport(let failure) = error else { return }
            #expect(failure.cause is NIOSSLError)
        }

        @Test func pinsAreRefusedInATLSConfigurationOrWithAClientOfAnotherMaker() throws {
            let expected = TLSTrust.Failure.unsupported(
                transport: "AsyncHTTPClientTransport",
                feature: "public-key pinning in a TLS configuration (make the transport with init(trust:))"
            )
            let trust = try pinning(["server"])
            #expect(throws: expected) { try trust.makeTLSConfiguration() }
            #expect(throws: expected) { try AsyncHTTPClientTransport(client: HTTPClient.shared, trust: trust) }
            #expect(throws: TLSTrust.Failure.invalidPin("no key is pinned")) {
                try AsyncHTTPClientTransport(trust: TLSTrust(server: .publicKeySHA256([])))
            }
        }

        @Test func unreadableIdentitiesAreRefusedWhenTheTransportIsMade() throws {
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
