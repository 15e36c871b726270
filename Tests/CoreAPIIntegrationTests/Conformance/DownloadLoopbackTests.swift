import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// Downloads to a file over real HTTP, on every transport: the bytes checked by SHA-256 against the
/// server's, ranges and validators seen by the server, partial files counted on disk.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(2)))
    struct DownloadLoopbackTests {
        let server: FixtureServer
        let scratch: ScratchDirectory

        init() throws {
            server = try FixtureServer.shared()
            scratch = try ScratchDirectory()
        }

        /// The validator a response offers for `If-Range`.
        enum Validator: Sendable, CustomTestStringConvertible {
            /// A weak `ETag` (and an old `Last-Modified`, which an `ETag` rules out).
            case weakTag
            /// No `ETag`; a `Last-Modified` after the `Date`.
            case recentDate
            /// No `ETag`; a `Last-Modified` two days old.
            case oldDate

            var testDescription: String {
                switch self {
                case .weakTag: "weak ETag"
                case .recentDate: "recent Last-Modified"
                case .oldDate: "old Last-Modified"
                }
            }
        }

        private func destination(_ name: String) -> DownloadedFile.Options {
            DownloadedFile.Options(destination: .file(scratch.url.appendingPathComponent(name)))
        }

        /// Starts `method`, whose body stalls after its first MiB, waits until that MiB has arrived,
        /// cancels the download and checks it ended with `cancelled`.
        private func cancelAfterFirstMebibyte(
            of method: GetDownload,
            options: DownloadedFile.Options,
            with session: ApiSession
        ) async throws {
            let log = ProgressLog()
            let task = Task { try await session.download(method, options: options, progress: log.append) }
            try await waitUntil { log.values.contains { $0.direction == .download && $0.completedBytes >= 1 << 20 } }
            task.cancel()
            await #expect(throws: ApiError.cancelled) { try await task.value }
        }

        /// The body lands in the destination as the server sent it, with progress up to its size, and
        /// nothing else is left in the directory.
        @Test(arguments: TestTransport.underTest)
        func theBodyIsWrittenToTheDestination(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let log = ProgressLog()
            let size = 3 << 20
            let file = try await session.download(
                GetDownload(size: size, name: uniqueName("plain")),
                options: destination("plain.bin"),
                progress: log.append
            )
            #expect(file.size == Int64(size))
            #expect(file.statusCode == 200)
            #expect(file.resumedBytes == 0)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            #expect(try scratch.contents() == ["plain.bin"])
            let downloads = log.values.filter { $0.direction == .download }.map(\.completedBytes)
            #expect(downloads.last == Int64(size))
            #expect(downloads == downloads.sorted())
        }

        /// A connection dropped after 2 MiB of 5 is resumed by the call itself with `Range` and
        /// `If-Range`; the file's SHA-256 is the server's.
        @Test(arguments: TestTransport.underTest)
        func aDroppedConnectionIsResumedWithARange(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("dropped")
            let file = try await session.download(
                GetDownload(size: 5 << 20, name: name, drop: 2 << 20),
                options: destination("dropped.bin")
            )
            #expect(file.size == 5 << 20)
            #expect(file.statusCode == 206)
            #expect(file.resumedBytes > 0 && file.resumedBytes <= 2 << 20)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            let requests = try server.downloadRequests(name: name)
            #expect(requests.count == 2)
            #expect(requests.first?.range == nil)
            #expect(requests.last?.range == "bytes=\(file.resumedBytes)-")
            #expect(requests.last?.ifRange == "\"v1\"")
            #expect(requests.map(\.acceptEncoding) == ["identity", "identity"])
            #expect(try scratch.contents() == ["dropped.bin"])
        }

        /// An automatic resume waits its backoff first: with a second without jitter, the server sees the
        /// resumed request at least a second after the dropped one began.
        @Test(arguments: TestTransport.underTest)
        func anAutomaticResumeWaitsItsBackoff(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("backoff")
            var options = destination("backoff.bin")
            options.resumeBackoff = RetryPolicy.Backoff(initialDelay: .seconds(1), jitter: .none)
            let file = try await session.download(
                GetDownload(size: 3 << 20, name: name, drop: 1 << 20),
                options: options
            )
            #expect(file.statusCode == 206)
            let requests = try server.downloadRequests(name: name)
            try #require(requests.count == 2)
            #expect(requests[1].at - requests[0].at >= 1)
        }

        /// A part that arrived gzip-coded (the server coded it though the download asked for `identity`)
        /// is started again after the drop, never resumed: its decoded bytes are not the range to ask.
        @Test(arguments: TestTransport.underTest)
        func aCodedPartIsRestartedNotResumed(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("coded")
            var options = destination("coded.bin")
            options.resumeBackoff = RetryPolicy.Backoff(initialDelay: .milliseconds(10))
            // The 4 MiB body codes to about 16 KB; the connection drops after half of them.
            let file = try await session.download(
                GetDownload(size: 4 << 20, name: name, drop: 8_000, gzip: 1),
                options: options
            )
            #expect(file.statusCode == 200)
            #expect(file.resumedBytes == 0)
            #expect(file.size == 4 << 20)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            let requests = try server.downloadRequests(name: name)
            #expect(requests.map(\.range) == [nil, nil])
            #expect(requests.map(\.acceptEncoding) == ["identity", "identity"])
        }

        /// A `206` whose `Content-Range` starts after the offset asked for is never appended: the file
        /// starts again with a request for the whole body.
        @Test(arguments: TestTransport.underTest)
        func aRangeFromElsewhereIsNeverAppended(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("shifted")
            var options = destination("shifted.bin")
            options.resumeBackoff = RetryPolicy.Backoff(initialDelay: .milliseconds(10))
            let file = try await session.download(
                GetDownload(size: 3 << 20, name: name, drop: 1 << 20, shift: 1000),
                options: options
            )
            #expect(file.statusCode == 200)
            #expect(file.resumedBytes == 0)
            #expect(file.size == 3 << 20)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            let requests = try server.downloadRequests(name: name)
            #expect(requests.count == 3)
            #expect(requests.first?.range == nil)
            #expect(requests.dropFirst().first?.range?.hasPrefix("bytes=") == true)
            #expect(requests.last?.range == nil)
        }

        /// `If-Range` names only a strong validator (RFC 9110 §13.1.5): a dropped download with a weak
        /// `ETag`, or with only a `Last-Modified` not a second before the `Date`, starts again; one with
        /// only a `Last-Modified` two days old resumes with it.
        @Test(arguments: TestTransport.underTest, [Validator.weakTag, .recentDate, .oldDate])
        func onlyAStrongValidatorResumes(transport: TestTransport, validator: Validator) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("validator")
            var options = destination("validator.bin")
            options.resumeBackoff = RetryPolicy.Backoff(initialDelay: .milliseconds(10))
            var method = GetDownload(size: 3 << 20, name: name, drop: 1 << 20)
            switch validator {
            case .weakTag: method.weak = 1
            case .recentDate: (method.noetag, method.lm) = (1, "recent")
            case .oldDate: method.noetag = 1
            }
            let file = try await session.download(method, options: options)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            let requests = try server.downloadRequests(name: name)
            try #require(requests.count == 2)
            if validator == .oldDate {
                #expect(file.statusCode == 206)
                #expect(requests[1].ifRange == "Tue, 24 Nov 2026 05:00:00 GMT")
                #expect(requests[1].range == "bytes=\(file.resumedBytes)-")
            } else {
                #expect(file.statusCode == 200)
                #expect(file.resumedBytes == 0)
                #expect(requests[1].range == nil)
                #expect(requests[1].ifRange == nil)
            }
        }

        /// A kept part that is already the whole file gets `416` with `Content-Range: bytes */N`: when N
        /// is the part's size, the download is done with the part; when the part is longer, it starts
        /// again.
        @Test(arguments: TestTransport.underTest, [0, 100])
        func aCompletePartCompletesTheDownload(transport: TestTransport, extra: Int) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("complete")
            let size = 300_000
            var options = destination("complete.bin")
            options.keepsPartialFile = true
            let target = scratch.url.appendingPathComponent("complete.bin")
            let part = Data((0..<(size + extra)).map { UInt8($0 % 251) })
            try part.write(to: URL(fileURLWithPath: target.path + ".partial"))
            try Data("\"v1\"".utf8).write(to: URL(fileURLWithPath: target.path + ".partial-validator"))

            let file = try await session.download(GetDownload(size: size, name: name), options: options)
            #expect(file.size == Int64(size))
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            let requests = try server.downloadRequests(name: name)
            if extra == 0 {
                #expect(file.statusCode == 416)
                #expect(file.resumedBytes == Int64(size))
                #expect(requests.map(\.range) == ["bytes=\(size)-"])
            } else {
                #expect(file.statusCode == 200)
                #expect(file.resumedBytes == 0)
                #expect(requests.map(\.range) == ["bytes=\(size + extra)-", nil])
            }
            #expect(try scratch.contents() == ["complete.bin"])
        }

        /// Cancelling a download ends it with `cancelled` and removes its partial file.
        @Test(arguments: TestTransport.underTest)
        func aCancelRemovesThePartialFile(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            try await cancelAfterFirstMebibyte(
                of: GetDownload(size: 4 << 20, name: uniqueName("cancelled"), stall: 1 << 20),
                options: destination("cancelled.bin"),
                with: session
            )
            #expect(try await scratch.contents(settlingTo: 0) == [])
        }

        /// A cancelled download that keeps its part is continued by the next download to the same file:
        /// the second request asks for the rest, and the file's SHA-256 is the server's.
        @Test(arguments: TestTransport.underTest)
        func aKeptPartIsResumedByTheNextCall(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("kept")
            var options = destination("kept.bin")
            options.keepsPartialFile = true
            try await cancelAfterFirstMebibyte(
                of: GetDownload(size: 4 << 20, name: name, stall: 1 << 20),
                options: options,
                with: session
            )
            #expect(try scratch.contents() == ["kept.bin.partial", "kept.bin.partial-validator"])
            let file = try await session.download(GetDownload(size: 4 << 20, name: name), options: options)
            #expect(file.statusCode == 206)
            #expect(file.resumedBytes >= 1 << 20)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            #expect(try server.downloadRequests(name: name).last?.range == "bytes=\(file.resumedBytes)-")
            #expect(try scratch.contents() == ["kept.bin"])
        }

        /// When the file changed since the part was kept, the server answers the range request with the
        /// whole new body, which replaces the part.
        @Test(arguments: TestTransport.underTest)
        func aChangedFileStartsAgain(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("changed")
            var options = destination("changed.bin")
            options.keepsPartialFile = true
            try await cancelAfterFirstMebibyte(
                of: GetDownload(size: 3 << 20, name: name, stall: 1 << 20),
                options: options,
                with: session
            )
            let file = try await session.download(GetDownload(size: 2 << 20, name: name, etag: "v2"), options: options)
            #expect(file.statusCode == 200)
            #expect(file.resumedBytes == 0)
            #expect(file.size == 2 << 20)
            #expect(try Digest.sha256(of: file.location) == file.headers["X-Content-SHA256"])
            #expect(try server.downloadRequests(name: name).last?.ifRange == "\"v1\"")
        }

        /// An existing destination is refused before anything is sent, unless the download may replace it.
        @Test(arguments: TestTransport.underTest)
        func anExistingFileIsNotReplacedUnlessAllowed(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("exists")
            let target = scratch.url.appendingPathComponent("exists.bin")
            try Data("old".utf8).write(to: target)
            await #expect(throws: ApiError.invalidRequest(.destinationExists(path: target.path))) {
                try await session.download(GetDownload(size: 1024, name: name), options: destination("exists.bin"))
            }
            #expect(try server.downloadRequests(name: name).isEmpty)
            var options = destination("exists.bin")
            options.overwrite = true
            let file = try await session.download(GetDownload(size: 1024, name: name), options: options)
            #expect(try Data(contentsOf: file.location).count == 1024)
        }

        /// The download's own limit stops the body as it passes it, whatever the in-memory limit is, and
        /// leaves no file; a status error writes nothing either.
        @Test(arguments: TestTransport.underTest)
        func theLimitAndStatusErrorsLeaveNoFile(transport: TestTransport) async throws {
            let session = transport.makeSession(
                hostProvider: server.hosts,
                defaults: CallOptions(maximumResponseSize: 1024)
            )
            var options = destination("limited.bin")
            options.maximumSize = 1 << 20
            await #expect(throws: ApiError.responseTooLarge(limit: 1 << 20)) {
                try await session.download(GetDownload(size: 3 << 20, name: uniqueName("limit")), options: options)
            }
            let big = try await session.download(
                GetDownload(size: 2 << 20, name: uniqueName("big")),
                options: destination("big.bin")
            )
            #expect(big.size == 2 << 20)  // far above the in-memory limit of 1 KiB
            await #expect {
                try await session.download(StatusCall(code: 404), options: destination("missing.bin"))
            } throws: { error in
                (error as? FixtureServiceError)?.status == 404  // as `perform` fails: the service's error
            }
            #expect(try await scratch.contents(settlingTo: 1) == ["big.bin"])
        }
    }
}
