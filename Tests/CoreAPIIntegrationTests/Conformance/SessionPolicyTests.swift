import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// Redirect rules, limits and faults against the misbehaving fixture (two origins: 127.0.0.1 and
    /// localhost on another port), over every transport.
    @Suite(.timeLimit(.minutes(1)))
    struct SessionPolicyTests {
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

        typealias FaultRow = (path: String, kind: ApiError.TransportFailure.Kind, linuxCode: Int?)

        /// Every broken exchange of the fixture, the kind of transport failure it ends with and, on Linux,
        /// the `URLError` code FoundationNetworking reports for it (`nil`: CoreAPI's own check, no code).
        static let transportFaults: [FaultRow] = [
            // The head arrived, then the connection ended: -1, "transfer closed with 900 bytes remaining to read".
            ("/fault/close-mid-body", .connectionLost, -1),
            // -1, "transfer closed with outstanding read data remaining".
            ("/fault/truncated-chunked", .connectionLost, -1),
            // -1005, "Recv failure: Connection reset by peer", before any head.
            ("/fault/reset", .connectionLost, -1005),
            // -1002, "Unsupported HTTP version in response".
            ("/fault/garbage-status", .badResponse, -1002),
            // -1002, "Received HTTP/0.9 when not allowed".
            ("/fault/garbage-status?line=HELLO", .badResponse, -1002),
            // -1, "Header without colon".
            ("/fault/garbage-header?kind=colon", .badResponse, -1),
            // -1, "Nul byte in header".
            ("/fault/garbage-header?kind=nul", .badResponse, -1),
            // Content-Length: 10 and Content-Length: 5 (libcurl alone returns 5 of the 10 bytes).
            ("/fault/conflicting-content-length", .badResponse, nil),
            ("/fault/conflicting-content-length?lengths=5,10", .badResponse, nil),
            ("/fault/conflicting-content-length?joined=1", .badResponse, nil),
            // -1, "Invalid Content-Length: value", before the head.
            ("/fault/conflicting-content-length?lengths=10,abc", .badResponse, -1),
            ("/fault/conflicting-content-length?lengths=abc", .badResponse, -1),
            // A coding nothing decodes (libcurl alone fails once body bytes arrive).
            ("/fault/encoding?value=bogus", .badResponse, nil),
            ("/fault/encoding?value=compress&garbage=1", .badResponse, nil),
            ("/fault/encoding?value=gzip,%20bogus", .badResponse, nil),
            // Six stacked codings: -1, "Reject response due to more than 5 content encodings", before the head.
            ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip,%20gzip", .badResponse, -1),
            // A body its coding cannot read: -1, "Error while processing content unencoding: incorrect header check".
            ("/fault/encoding?value=gzip&garbage=1", .badResponse, -1),
            ("/fault/encoding?value=deflate&garbage=1", .badResponse, -1),
            // -1, "Unrecognized or bad HTTP Content or Transfer-Encoding".
            ("/fault/encoding?value=br&garbage=1", .badResponse, -1),
        ]

        @Test(arguments: TestTransport.underTest, transportFaults)
        func faultsEndWithTheirKind(transport: TestTransport, row: FaultRow) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<Data>(url: url(row.path)))
            }
            if transport.reportsFoundationNetworkingCodes {
                #expect(error == .transport(.init(kind: row.kind, code: row.linuxCode)), "\(row.path)")
            } else {
                guard case .transport(let failure) = error else {
                    Issue.record("\(row.path): expected a transport failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.kind == row.kind, "\(row.path): \(failure)")
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }

        @Test(
            arguments: TestTransport.underTest,
            [
                "/fault/huge?mb=200", "/fault/huge-chunked?mb=200", "/fault/gzip-bomb?mb=200",
                "/fault/big-content-length",
                // A length no Int64 holds: libcurl reads to the end of the connection, reporting no length.
                "/fault/conflicting-content-length?lengths=99999999999999999999999",
            ]
        )
        func oversizedBodiesEndAtTheLimit(transport: TestTransport, path: String) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let refusedHead = path.contains("lengths=") && !transport.acceptsRepeatedOrHugeContentLength
            let expected =
                refusedHead
                ? ApiError.transport(.init(kind: .badResponse)) : ApiError.responseTooLarge(limit: 10 * 1024 * 1024)
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<RawEcho>(url: url(path)))
            }
            if case .transport(let failure) = error {
                #expect(ApiError.transport(.init(kind: failure.kind)) == expected, "\(path)")
            } else {
                #expect(error == expected, "\(path)")
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }

        /// Length fields that agree are one length; codings the engine decodes are decoded, up to five
        /// stacked; a response to `HEAD` has no body to decode, whatever its coding.
        @Test(
            arguments: TestTransport.underTest,
            [
                ("/fault/conflicting-content-length?lengths=10,10", "GET", "0123456789"),
                ("/fault/conflicting-content-length?lengths=10,010", "GET", "0123456789"),
                ("/fault/encoding?value=identity", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=GZIP", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=x-gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20identity,%20deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=bogus", "HEAD", ""),
            ]
        )
        func validLengthsAndCodingsAreRead(
            transport: TestTransport,
            exchange: (path: String, method: String, body: String)
        ) async throws {
            let call = TransportCall<Data>(url: url(exchange.path), httpMethod: HTTPMethod(rawValue: exchange.method))
            guard exchange.path.contains("lengths=") && !transport.acceptsRepeatedOrHugeContentLength else {
                let data = try await makeSession(transport).perform(call)
                #expect(String(decoding: data, as: UTF8.self) == exchange.body)
                return
            }
            let error = await #expect(throws: ApiError.self) { try await makeSession(transport).perform(call) }
            guard case .transport(let failure) = error else {
                Issue.record("expected a bad response, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .badResponse)
        }

        /// Whether the engine goes on inflating a gzip bomb once the size limit has refused it
        /// (``TestTransport/stopsInflatingAtTheLimit``), measured in a child process of its own
        /// (``GzipBombScenarios``), where nothing else uses the processor.
        @Test(arguments: TestTransport.underTest)
        func aRefusedGzipBombIsInflatedNoFurther(transport: TestTransport) async throws {
            try await StressChild.run(#function, of: "GzipBombScenarios", over: transport)
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

        @Test(arguments: TestTransport.underTest)
        func anUntrustedCertificateIsATLSFailure(transport: TestTransport) async throws {
            let session = makeSession(transport)
            for base in [
                "https://127.0.0.1:\(server.port3)", "https://localhost:\(server.port3)",
                "https://127.0.0.1:\(server.port)",
            ] {
                let error = await #expect(throws: ApiError.self) {
                    try await session.perform(TransportCall<Data>(url: base + "/fast"))
                }
                guard case .transport(let failure) = error else {
                    Issue.record("\(base): expected a transport failure, got \(String(describing: error))")
                    continue
                }
                #expect(failure.kind == .tls, "\(base): \(failure)")
            }
        }

        @Test(arguments: TestTransport.underTest)
        func aMethodCanRaiseTheSizeLimit(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let data = try await session.perform(
                TransportCall<Data>(url: url("/fault/huge?mb=12"), maximumResponseSize: 16 * 1024 * 1024)
            )
            #expect(data.count == 12 * 1024 * 1024)
        }

        @Test(arguments: TestTransport.underTest)
        func aTricklingBodyEndsAtTheDeadline(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    TransportCall<Data>(
                        url: url("/fault/trickle?bytes=20&ms=200"),
                        deadline: .seconds(1.0),
                        timeout: .seconds(5)
                    )
                )
            }
            let elapsed = ContinuousClock.now - start
            #expect(error == .timeout)
            #expect(elapsed >= .milliseconds(950))
            #expect(elapsed < .seconds(3))
        }

        @Test(arguments: TestTransport.underTest)
        func invalidateCancelsCallsInFlightAndRefusesLaterOnes(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let calls = (0..<5).map { _ in
                Task { try await session.perform(TransportCall<Data>(url: url("/delay?ms=3000"))) }
            }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            session.invalidate()
            for call in calls {
                let result = await call.result
                #expect(throws: ApiError.cancelled) { try result.get() }
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(!session.isValid)
            let tag = "after-invalidate-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<Data>(url: url("/fast"), headers: ["X-Test-Tag": tag]))
            }
            #expect(error == .invalidRequest(.sessionInvalidated))
            #expect(try server.count(tag: tag) == 0)
            session.invalidate()
        }
    }
}
