import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// Redirects against the misbehaving fixture (two origins: 127.0.0.1 and localhost on another port),
    /// over every transport: the session follows them above the transport by the rules of `SessionPolicy`
    /// (secrets dropped across origins, the same body for 307 and 308, a GET after 303, only http and https
    /// targets, at most five hops), and a redirect's body is never the answer, whatever its size or pace.
    @Suite(.timeLimit(.minutes(1)))
    struct RedirectLoopbackTests {
        let server: FixtureServer
        static let secrets: Headers = [
            "Authorization": "Bearer SECRET-TOKEN", "Cookie": "session=COOKIE-SECRET", "X-Api-Key": "KEY-SECRET",
            "X-Plain": "visible",
        ]

        init() throws {
            server = try FixtureServer.shared()
        }

        /// A session over `transport` that also treats `X-Api-Key` as a secret.
        func makeSession(
            _ transport: TestTransport,
            policy: SessionPolicy = SessionPolicy(secretHeaderNames: ["X-Api-Key"])
        ) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts, policy: policy)
        }

        func url(_ path: String) -> String { server.baseURL + path }

        @Test(arguments: TestTransport.underTest, [301, 302, 303, 307, 308])
        func aCrossOriginRedirectDropsEverySecret(transport: TestTransport, status: Int) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(
                TransportCall<RawEcho>(url: url("/redirect/cross?status=\(status)"), headers: Self.secrets)
            )
            #expect(echo.port == server.port2)
            #expect(echo.values("Authorization").isEmpty)
            #expect(echo.values("Cookie").isEmpty)
            #expect(echo.values("X-Api-Key").isEmpty)
            #expect(echo.values("X-Plain") == ["visible"])
        }

        @Test(arguments: TestTransport.underTest)
        func secretsStayDroppedWhenTheChainComesBack(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let back = "/redirect/cross?path=/echo/raw"
            let path =
                "/redirect/cross?path=" + (back.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let echo = try await session.perform(TransportCall<RawEcho>(url: url(path), headers: Self.secrets))
            #expect(echo.port == server.port)
            #expect(echo.values("Authorization").isEmpty)
            #expect(echo.values("X-Plain") == ["visible"])
        }

        @Test(arguments: TestTransport.underTest)
        func aSameOriginRedirectKeepsTheHeaders(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(
                TransportCall<RawEcho>(url: url("/redirect/chain?n=2"), headers: Self.secrets)
            )
            #expect(echo.port == server.port)
            #expect(echo.values("Authorization") == ["Bearer SECRET-TOKEN"])
            #expect(echo.values("X-Api-Key") == ["KEY-SECRET"])
        }

        @Test(arguments: TestTransport.underTest, [307, 308])
        func aTemporaryOrPermanentRedirectSendsTheSameBodyAgain(transport: TestTransport, status: Int) async throws {
            let session = makeSession(transport)
            let body = ["note": String(repeating: "x", count: 5000)]
            let expected = try #require(try JSONParametersEncoder().body(for: body))
            let echo = try await session.perform(
                TransportCall<RawEcho>(
                    url: url("/redirect?to=/echo/raw&status=\(status)"),
                    httpMethod: .post,
                    body: body
                )
            )
            #expect(echo.requestLine.hasPrefix("POST /echo/raw"))
            #expect(echo.bodySize == expected.count)
            #expect(echo.bodySha256 == (try Digest.sha256(of: expected)))
        }

        @Test(arguments: TestTransport.underTest)
        func aBodyUploadedFromAFileIsSentAgainOn307(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "data.bin", size: 3 * 1024 * 1024)
            let receipt = try await session.perform(
                TransportCall<UploadReceipt>(
                    url: url("/redirect?to=/upload&status=307"),
                    httpMethod: .post,
                    fields: UploadTests.LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: file)),
                    encoder: MultipartFormDataEncoder(streamingThreshold: 1024, temporaryDirectory: scratch.url)
                )
            )
            #expect(receipt.bodySize > 3 * 1024 * 1024)
            #expect(receipt.contentLength == String(receipt.bodySize))
            #expect(try scratch.contents() == ["data.bin"])
        }

        @Test(arguments: TestTransport.underTest)
        func aSeeOtherTurnsAPostIntoAGetWithoutBody(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(
                TransportCall<RawEcho>(
                    url: url("/redirect?to=/echo/raw&status=303"),
                    httpMethod: .post,
                    body: ["a": "b"]
                )
            )
            #expect(echo.requestLine.hasPrefix("GET /echo/raw"))
            #expect(echo.bodySize == 0)
            #expect(echo.values("Content-Type").isEmpty)
        }

        @Test(arguments: TestTransport.underTest)
        func aLoopEndsAfterTheLimitWithATypedError(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let suffix = UUID().uuidString
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<RawEcho>(url: url("/redirect/loop/\(suffix)")))
            }
            guard case .redirect(let failure) = error else {
                Issue.record("expected a redirect failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .tooManyRedirects(limit: 5))
            #expect(try server.hits(path: "/redirect/loop/\(suffix)") == 6)
        }

        @Test(arguments: TestTransport.underTest)
        func withRedirectsOffTheRedirectIsTheAnswer(transport: TestTransport) async throws {
            let session = makeSession(transport, policy: SessionPolicy(maximumRedirects: 0))
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<Data>(url: url("/redirect/chain?n=1")))
            }
            #expect(error?.category == .status)
            #expect(error?.statusCode == 302)
        }

        /// The refusal names the scheme and shows the target as the server wrote it, port included.
        @Test(
            arguments: TestTransport.underTest,
            [
                ("data", "data", "data:text/plain,hello"), ("mailto", "mailto", "mailto:nobody@example.invalid"),
                ("file", "file", "file:///etc/passwd"), ("ftp", "ftp", "ftp://127.0.0.1:PORT/file.txt"),
            ]
        )
        func onlyHTTPTargetsAreFollowed(
            transport: TestTransport,
            location: (kind: String, scheme: String, written: String)
        ) async throws {
            let session = makeSession(transport)
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<RawEcho>(url: url("/redirect/scheme?kind=\(location.kind)")))
            }
            guard case .redirect(let failure) = error else {
                Issue.record("expected a redirect failure, got \(String(describing: error))")
                return
            }
            let scheme = location.scheme
            let target = location.written.replacingOccurrences(of: "PORT", with: String(server.port))
            #expect(failure.reason == .unsupportedScheme(scheme))
            #expect(failure.statusCode == 302)
            #expect(failure.target?.absoluteString == target)
            #expect(error?.description == "Redirect refused: unsupported scheme \"\(scheme)\" (HTTP 302) to \(target)")
        }

        /// `HTTP://` is an http URL: the session follows it (FoundationNetworking alone finds no protocol for
        /// a scheme in capitals and fails with -1002).
        @Test(arguments: TestTransport.underTest)
        func aTargetWithASchemeInCapitalsIsFollowed(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let target = "HTTP://127.0.0.1:\(server.port)/echo/raw"
            let query = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let echo = try await session.perform(TransportCall<RawEcho>(url: url("/redirect?to=\(query)")))
            #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
        }

        /// A redirect's body is not the answer: only its first 64 KiB are kept, so a body larger than the
        /// size limit does not fail the call, which follows the redirect.
        @Test(arguments: TestTransport.underTest)
        func aRedirectWithABodyOverTheSizeLimitIsFollowed(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(
                TransportCall<RawEcho>(
                    url: url("/redirect/big-body?mb=1&kib=1024&ms=0"),
                    maximumResponseSize: 256 * 1024
                )
            )
            #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
        }

        /// A redirect whose 1 MiB body trickles in 64 KiB every 100 ms (1.5 s in all) is followed. A
        /// transport hands the `3xx` over at once and stops reading after 64 KiB, unless its engine reads
        /// a redirect's whole body first (``TestTransport/readsRedirectBodiesWhole``): then the call takes
        /// the whole trickle.
        @Test(arguments: TestTransport.underTest)
        func aRedirectWithATricklingBodyIsFollowed(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let echo = try await session.perform(
                TransportCall<RawEcho>(url: url("/redirect/big-body?mb=1&kib=64&ms=100"), timeout: .seconds(10))
            )
            let elapsed = ContinuousClock.now - start
            #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
            if transport.readsRedirectBodiesWhole {
                #expect(elapsed >= .milliseconds(1400))
                #expect(elapsed < .seconds(5))
            } else {
                #expect(elapsed < .seconds(1))
            }
        }

        /// An idle timeout (0.5 s) shorter than a redirect body's trickle (64 KiB every 100 ms) does not
        /// end the call: the transport stops reading after 64 KiB and the session follows the redirect.
        /// An engine that reads a redirect's whole body reports none of its bytes meanwhile
        /// (``TestTransport/readsRedirectBodiesWhole``), so there the idle timeout runs through the body and
        /// ends the call. Pinned so that a FoundationNetworking that reports them shows up here.
        @Test(arguments: TestTransport.underTest)
        func anIdleTimeoutShorterThanARedirectBodysTrickle(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let call = TransportCall<RawEcho>(url: url("/redirect/big-body?mb=1&kib=64&ms=100"), timeout: .seconds(0.5))
            if transport.readsRedirectBodiesWhole {
                await #expect(throws: ApiError.timeout) { try await session.perform(call) }
                #expect(ContinuousClock.now - start < .seconds(1))
            } else {
                let echo = try await session.perform(call)
                #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
            }
        }
    }
}
