#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIJSON
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import Testing

    @testable import CoreAPIAsyncHTTPClient

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// How ``AsyncHTTPClientTransport`` decodes content codings, fed by hand.
    @Suite(.timeLimit(.minutes(1)))
    struct ContentDecoderTests {
        static let text = "hello, hello, hello"
        static let zlib: [UInt8] = [
            0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0xc8, 0x40, 0xa2, 0x00, 0x44, 0x28, 0x06, 0xd5,
        ]
        static let rawDeflate: [UInt8] = [0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0xc8, 0x40, 0xa2, 0x00]
        static let gzip: [UInt8] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51,
            0xc8, 0x40, 0xa2, 0x00, 0x9f, 0xa1, 0xca, 0x09, 0x13, 0x00, 0x00, 0x00,
        ]
        /// `zlib` inside gzip: `Content-Encoding: deflate, gzip`.
        static let gzipOfZlib: [UInt8] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x98, 0x73, 0xda, 0xe3, 0xec, 0xc9,
            0x93, 0xd7, 0x03, 0x4f, 0x38, 0x2c, 0x62, 0x70, 0xd1, 0x60, 0xbb, 0x0a, 0x00, 0x4f, 0x91, 0x4a, 0xd0,
            0x11, 0x00, 0x00, 0x00,
        ]

        /// Decodes `bytes` fed `step` bytes at a time.
        private func decode(_ bytes: [UInt8], coding: String, step: Int) throws -> String {
            let decoder = try #require(ContentDecoder(contentEncoding: coding))
            var output: [UInt8] = []
            var start = 0
            while start < bytes.count {
                let end = min(start + step, bytes.count)
                try bytes[start..<end].withUnsafeBytes { piece in
                    try decoder.decode(piece) { output.append(contentsOf: $0) }
                }
                start = end
            }
            try decoder.finish()
            return String(decoding: output, as: UTF8.self)
        }

        @Test(arguments: [1, 2, 3, 1000])
        func everyCodingIsDecodedWhateverTheChunks(step: Int) throws {
            #expect(try decode(Self.zlib, coding: "deflate", step: step) == Self.text)
            #expect(try decode(Self.rawDeflate, coding: "deflate", step: step) == Self.text)
            #expect(try decode(Self.gzip, coding: "gzip", step: step) == Self.text)
            #expect(try decode(Self.gzip, coding: "X-GZIP", step: step) == Self.text)
            #expect(try decode(Self.gzipOfZlib, coding: "deflate, identity, gzip", step: step) == Self.text)
        }

        @Test func identityAloneIsNoDecoder() {
            #expect(ContentDecoder(contentEncoding: "identity") == nil)
            #expect(ContentDecoder(contentEncoding: nil) == nil)
        }

        @Test func aTruncatedOrBrokenStreamIsABadResponse() throws {
            #expect(throws: ApiError.transport(.init(kind: .badResponse))) {
                _ = try decode(Array(Self.gzip.dropLast(10)), coding: "gzip", step: 1000)
            }
            #expect(throws: ApiError.transport(.init(kind: .badResponse))) {
                _ = try decode(Array("not compressed".utf8), coding: "gzip", step: 1000)
            }
            #expect(throws: ApiError.transport(.init(kind: .badResponse))) {
                _ = try decode(Self.gzip, coding: "deflate", step: 1000)
            }
        }
    }

    extension SerialLoopback {
        /// ``AsyncHTTPClientTransport`` under an ``ApiSession`` against the loopback fixture: bodies,
        /// codings, limits, redirects, faults, timeouts, cancellation and uploads.
        @Suite(.timeLimit(.minutes(1)))
        struct AsyncHTTPClientTransportTests {
            /// One transport for the suite; its client is never shut down, as the process ends.
            static let transport = AsyncHTTPClientTransport()

            let server: FixtureServer
            let session: ApiSession

            init() throws {
                server = try FixtureServer.shared()
                session = ApiSession(hostProvider: server.hosts, transport: Self.transport)
            }

            func url(_ path: String) -> String { server.baseURL + path }

            @Test func jsonAndGzipBodiesArrive() async throws {
                let payload = try await session.perform(GzipCall())
                #expect(payload.compressed)
                #expect(payload.items == Array(0..<100))
                let echo = try await session.perform(TransportCall<RawEcho>(url: url("/echo/raw")))
                #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
                #expect(echo.values("Accept-Encoding") == ["gzip, deflate"])
            }

            /// The request's fields reach the wire in their order, a repeated name kept apart, and a
            /// caller's own `Accept-Encoding`, in any case, is the one sent: the transport adds its own only
            /// when there is none.
            @Test func theRequestsFieldsAreSentAsTheyAre() async throws {
                let headers = Headers([
                    Headers.Field(name: "X-Trace", value: "one"),
                    Headers.Field(name: "accept-encoding", value: "identity"),
                    Headers.Field(name: "X-Trace", value: "two"),
                ])
                let echo = try await session.perform(TransportCall<RawEcho>(url: url("/echo/raw"), headers: headers))
                #expect(echo.values("Accept-Encoding") == ["identity"])
                #expect(echo.values("X-Trace") == ["one", "two"])
                let sent = echo.headers.compactMap(\.first).filter {
                    ["x-trace", "accept-encoding"].contains($0.lowercased())
                }
                #expect(sent == ["X-Trace", "accept-encoding", "X-Trace"])
            }

            /// The fixture's broken exchanges, and the kind each ends with. AsyncHTTPClient's parser
            /// (llhttp) refuses any repeated `Content-Length`, and one no `Int64` holds, before the transport
            /// sees the head.
            @Test(arguments: [
                ("/fault/close-mid-body", ApiError.TransportFailure.Kind.connectionLost),
                ("/fault/truncated-chunked", .connectionLost),
                ("/fault/reset", .connectionLost),
                ("/fault/garbage-status", .badResponse),
                ("/fault/garbage-status?line=HELLO", .badResponse),
                ("/fault/garbage-header?kind=colon", .badResponse),
                ("/fault/garbage-header?kind=nul", .badResponse),
                ("/fault/conflicting-content-length", .badResponse),
                ("/fault/conflicting-content-length?lengths=5,10", .badResponse),
                ("/fault/conflicting-content-length?joined=1", .badResponse),
                ("/fault/conflicting-content-length?lengths=10,10", .badResponse),
                ("/fault/conflicting-content-length?lengths=10,abc", .badResponse),
                ("/fault/conflicting-content-length?lengths=abc", .badResponse),
                ("/fault/conflicting-content-length?lengths=99999999999999999999999", .badResponse),
                ("/fault/encoding?value=bogus", .badResponse),
                ("/fault/encoding?value=compress&garbage=1", .badResponse),
                ("/fault/encoding?value=gzip,%20bogus", .badResponse),
                ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip,%20gzip", .badResponse),
                ("/fault/encoding?value=gzip&garbage=1", .badResponse),
                ("/fault/encoding?value=deflate&garbage=1", .badResponse),
                ("/fault/encoding?value=br&garbage=1", .badResponse),
                ("/fault/encoding?value=zstd&garbage=1", .badResponse),
            ])
            func faultsEndWithTheirKind(path: String, kind: ApiError.TransportFailure.Kind) async throws {
                let start = ContinuousClock.now
                let error = await #expect(throws: ApiError.self) {
                    try await session.perform(TransportCall<Data>(url: url(path)))
                }
                #expect(error == .transport(.init(kind: kind)), "\(path)")
                #expect(ContinuousClock.now - start < .seconds(10))
            }

            /// The fixture closes the connection after these responses without saying so, and the client
            /// keeps it for the next request until it notices: a request that meets the closed connection
            /// is sent again on a new one (here about one in seven would fail otherwise).
            @Test func aConnectionTheServerClosedIsNotAFailure() async throws {
                for _ in 0..<50 {
                    let data = try await session.perform(TransportCall<Data>(url: url("/fault/encoding?value=gzip")))
                    #expect(String(decoding: data, as: UTF8.self) == #"{"encoded": true}"#)
                }
            }

            @Test func aRefusedConnectionIsCannotConnect() async throws {
                let start = ContinuousClock.now
                let error = await #expect(throws: ApiError.self) {
                    try await session.perform(TransportCall<Data>(url: "http://127.0.0.1:1/fast"))
                }
                #expect(error == .transport(.init(kind: .cannotConnect)))
                #expect(ContinuousClock.now - start < .seconds(2))
                // SwiftNIO's error is kept as the cause.
                let cause = try #require(error?.underlyingError)
                #expect(String(reflecting: type(of: cause)).hasPrefix("NIO"), "\(type(of: cause))")
            }

            /// The mapping keeps the error it maps: NIO's and AsyncHTTPClient's as a transport failure's
            /// cause; an error of another module is `unknown`, before the response head or after it.
            @Test func theMappedErrorIsKeptAsTheCause() throws {
                struct Foreign: Error {}
                for afterHead in [false, true] {
                    let unknown = AsyncHTTPClientTransport.failure(for: Foreign(), afterHead: afterHead)
                    #expect(unknown.category == .other)
                    #expect(unknown.underlyingError is Foreign)
                }
                let lost = AsyncHTTPClientTransport.failure(
                    for: HTTPClientError.remoteConnectionClosed,
                    afterHead: true
                )
                #expect(lost == .transport(.init(kind: .connectionLost)))
                #expect(lost.underlyingError as? HTTPClientError == .remoteConnectionClosed)
                let reset = AsyncHTTPClientTransport.failure(
                    for: IOError(errnoCode: ECONNRESET, reason: "read"),
                    afterHead: false
                )
                #expect(reset == .transport(.init(kind: .connectionLost)))
                #expect((reset.underlyingError as? IOError)?.errnoCode == ECONNRESET)
                let closed = AsyncHTTPClientTransport.failure(for: ChannelError.ioOnClosedChannel, afterHead: false)
                #expect(closed.underlyingError as? ChannelError == .ioOnClosedChannel)
                #expect(
                    AsyncHTTPClientTransport.failure(for: HTTPClientError.cancelled, afterHead: false) == .cancelled
                )
            }

            @Test func anUntrustedCertificateIsATLSFailure() async throws {
                for base in ["https://127.0.0.1:\(server.port3)", "https://127.0.0.1:\(server.port)"] {
                    let error = await #expect(throws: ApiError.self) {
                        try await session.perform(TransportCall<Data>(url: base + "/fast"))
                    }
                    #expect(error == .transport(.init(kind: .tls)), "\(base)")
                    #expect(
                        error?.underlyingError.map { String(reflecting: type(of: $0)) }?.hasPrefix("NIOSSL") == true
                    )
                }
            }

            /// Bodies over the limit stop there: a declared length at once, a chunked body and a gzip bomb
            /// (1 MiB that inflates to 1 GiB) once their decoded bytes pass it.
            @Test(arguments: [
                "/fault/huge?mb=200", "/fault/huge-chunked?mb=200", "/fault/gzip-bomb?mb=1024",
                "/fault/big-content-length",
            ])
            func oversizedBodiesEndAtTheLimit(path: String) async throws {
                let start = ContinuousClock.now
                await #expect(throws: ApiError.responseTooLarge(limit: 10 * 1024 * 1024)) {
                    try await session.perform(TransportCall<RawEcho>(url: url(path)))
                }
                #expect(ContinuousClock.now - start < .seconds(5), "\(path)")
            }

            @Test(arguments: [
                ("/fault/encoding?value=identity", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=GZIP", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=x-gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20identity,%20deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=bogus", "HEAD", ""),
                ("/fault/conflicting-content-length?lengths=10", "GET", "0123456789"),
            ])
            func codingsAreDecoded(path: String, method: String, body: String) async throws {
                let data = try await session.perform(
                    TransportCall<Data>(url: url(path), httpMethod: HTTPMethod(rawValue: method))
                )
                #expect(String(decoding: data, as: UTF8.self) == body)
            }

            @Test func aLargeGzipBodyUnderARaisedLimitIsDecodedWhole() async throws {
                let data = try await session.perform(
                    TransportCall<Data>(url: url("/fault/gzip-bomb?mb=64"), maximumResponseSize: 64 << 20)
                )
                #expect(data.count == 64 << 20)
            }

            /// The session awaits each exchange in the calling task: no task of its own per exchange (only
            /// an engine behind `DetachedTransport` gets one).
            @Test func theSessionAwaitsTheExchangeInTheCallersTask() async throws {
                let recorder = TaskRecordingTransport(base: Self.transport)
                let recording = ApiSession(hostProvider: server.hosts, transport: recorder)
                let caller = withUnsafeCurrentTask { $0.map { $0.hashValue } }
                let echo = try await recording.perform(TransportCall<RawEcho>(url: url("/redirect/chain?n=1")))
                #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
                #expect(recorder.tasks.current.count == 2)  // the redirect and its target
                #expect(recorder.tasks.current.allSatisfy { $0 == caller })
            }

            @Test func theSessionFollowsRedirects() async throws {
                let echo = try await session.perform(TransportCall<RawEcho>(url: url("/redirect/chain?n=2")))
                #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
                #expect(try server.hits(path: "/redirect/chain") >= 2)
            }

            /// Only the first 64 KiB of a redirect's body are read: a 1 MiB body trickling in 64 KiB every
            /// 100 ms does not hold the call, and does not count against the limit.
            @Test func aRedirectBodyIsCutAt64KiB() async throws {
                let start = ContinuousClock.now
                let echo = try await session.perform(
                    TransportCall<RawEcho>(
                        url: url("/redirect/big-body?mb=1&kib=64&ms=100"),
                        maximumResponseSize: 32 * 1024,
                        timeout: .seconds(10)
                    )
                )
                #expect(echo.requestLine.hasPrefix("GET /echo/raw "))
                #expect(ContinuousClock.now - start < .seconds(1))
            }

            /// Called without a session (no activity clock), the transport watches its idle timeout itself;
            /// through a session the session's timer does (`TimeoutLoopbackTests`).
            @Test func aSilentServerEndsAtTheIdleTimeoutWithoutASession() async throws {
                let target = try #require(URL(string: url("/fault/trickle?bytes=5&ms=2000")))
                let options = TransportOptions(idleTimeout: .milliseconds(500))
                let start = ContinuousClock.now
                await #expect(throws: ApiError.timeout) {
                    try await Self.transport.send(ApiRequest(url: target), options: options)
                }
                let elapsed = ContinuousClock.now - start
                #expect(elapsed >= .milliseconds(450))
                #expect(elapsed < .seconds(2))
            }

            /// Bytes every 200 ms keep the idle timeout away, but not the deadline; the transport ends the
            /// exchange itself (the session's own deadline is a later backstop).
            @Test func aTricklingBodyEndsAtTheDeadline() async throws {
                let target = try #require(URL(string: url("/fault/trickle?bytes=20&ms=200")))
                let options = TransportOptions(idleTimeout: .seconds(5), deadline: .now + .milliseconds(1000))
                let start = ContinuousClock.now
                await #expect(throws: ApiError.timeout) {
                    try await Self.transport.send(ApiRequest(url: target), options: options)
                }
                let elapsed = ContinuousClock.now - start
                #expect(elapsed >= .milliseconds(950))
                #expect(elapsed < .seconds(2))
            }

            @Test func cancellingTheTaskEndsTheExchangeAtOnce() async throws {
                let request = ApiRequest(url: try #require(URL(string: url("/delay?ms=5000"))))
                let task = Task { try await Self.transport.send(request, options: TransportOptions()) }
                try await Task.sleep(for: .milliseconds(200))
                let start = ContinuousClock.now
                task.cancel()
                await #expect(throws: ApiError.cancelled) { try await task.value }
                #expect(ContinuousClock.now - start < .milliseconds(500))
            }

            /// A body file is streamed in chunks, with upload progress and then download progress, in order.
            @Test func aBodyFileIsStreamedWithProgress() async throws {
                let scratch = try ScratchDirectory()
                defer { scratch.remove() }
                let size = 8 << 20
                let file = try scratch.makeFile(named: "upload.bin", size: size)
                let request = ApiRequest(
                    method: .post,
                    url: try #require(URL(string: url("/upload"))),
                    body: .file(.init(url: file, length: Int64(size)))
                )
                let reports = LockedValue<[TransferProgress]>([])
                let raw = try await Self.transport.send(
                    request,
                    options: TransportOptions(progress: { progress in reports.withLock { $0.append(progress) } })
                )
                #expect(raw.statusCode == 200)
                let receipt = try RawEcho.decoder.decode(UploadReceipt.self, from: raw.data)
                #expect(receipt.bodySize == size)
                #expect(receipt.sha256 == (try Digest.sha256(of: file)))
                #expect(receipt.contentLength == String(size))
                let uploads = reports.current.filter { $0.direction == .upload }
                #expect(uploads.count == size / (64 * 1024))
                #expect(uploads.map(\.completedBytes) == uploads.map(\.completedBytes).sorted())
                #expect(
                    uploads.last
                        == TransferProgress(direction: .upload, completedBytes: Int64(size), totalBytes: Int64(size))
                )
                let firstDownload = try #require(reports.current.firstIndex { $0.direction == .download })
                #expect(reports.current[firstDownload...].allSatisfy { $0.direction == .download })
                #expect(reports.current.last?.completedBytes == Int64(raw.data.count))
            }

            @Test func aTransportThatIsShutDownSendsNothing() async throws {
                let transport = AsyncHTTPClientTransport()
                let session = ApiSession(hostProvider: server.hosts, transport: transport)
                _ = try await session.perform(TransportCall<Data>(url: url("/fast")))
                try await transport.shutdown()
                try await transport.shutdown()
                await #expect(throws: ApiError.invalidRequest(.sessionInvalidated)) {
                    try await session.perform(TransportCall<Data>(url: url("/fast")))
                }
            }
        }
    }
#endif
