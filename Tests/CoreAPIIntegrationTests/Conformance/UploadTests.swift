import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Form and multipart bodies against the loopback fixture, which parses multipart bodies with an
/// independent parser (Python's `email` package), over every transport.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(2)))
    struct UploadTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        func makeSession(_ transport: TestTransport) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts)
        }

        struct Profile: Encodable, Sendable {
            var name: String
            var age: Int
            var tags: [String]
            var avatar: CoreAPI.Attachment
            var documents: [CoreAPI.Attachment]
            var thumbnail: Data
            var empty: CoreAPI.Attachment
        }

        @Test(arguments: TestTransport.underTest)
        func formBodyFollowsTheWhatwgSerializer(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(FormPost(title: "a b*c~d+é", tags: ["x y", "z"], starred: true))
            #expect(echo.method == "POST")
            #expect(echo.body == "starred=true&tags%5B%5D=x+y&tags%5B%5D=z&title=a+b*c%7Ed%2B%C3%A9")
            #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }

        @Test(arguments: TestTransport.underTest)
        func multipartFieldsAndFilesReachAnIndependentParser(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let avatarFile = try scratch.makeFile(named: "me.png", size: 70_000)
            let emptyFile = try scratch.makeFile(named: "empty.txt", size: 0)
            let profile = Profile(
                name: "Zoë",
                age: 42,
                tags: ["a", "b c"],
                avatar: CoreAPI.Attachment(fileURL: avatarFile),
                documents: [
                    CoreAPI.Attachment(data: Data("first".utf8), filename: "one.txt"),
                    CoreAPI.Attachment(data: Data("{}".utf8), filename: "two.json"),
                ],
                thumbnail: Data([0, 1, 2, 255]),
                empty: CoreAPI.Attachment(fileURL: emptyFile)
            )
            let parsed = try await session.perform(
                MultipartUpload<Profile, ParsedMultipart>(
                    path: "/multipart",
                    fields: profile,
                    encoder: MultipartFormDataEncoder(temporaryDirectory: scratch.url)
                )
            )
            #expect(parsed.contentType.hasPrefix("multipart/form-data; boundary=CoreAPI-"))
            #expect(parsed.transferEncoding == nil)
            #expect(parsed.contentLength == String(parsed.bodySize))
            let summary = parsed.parts.map { [$0.name, $0.filename, $0.contentType, String($0.size)] }
            #expect(
                summary == [
                    ["name", nil, nil, "4"],
                    ["age", nil, nil, "2"],
                    ["tags", nil, nil, "1"],
                    ["tags", nil, nil, "3"],
                    ["avatar", "me.png", "image/png", "70000"],
                    ["documents", "one.txt", "text/plain", "5"],
                    ["documents", "two.json", "application/json", "2"],
                    ["thumbnail", "thumbnail", "application/octet-stream", "4"],
                    ["empty", "empty.txt", "text/plain", "0"],
                ]
            )
            #expect(parsed.parts.compactMap(\.text) == ["Zoë", "42", "a", "b c"])
            #expect(parsed.parts[4].sha256 == (try Digest.sha256(of: avatarFile)))
            #expect(parsed.parts[7].sha256 == (try Digest.sha256(of: Data([0, 1, 2, 255]))))
            #expect(try scratch.contents() == ["empty.txt", "me.png"])
        }

        struct Names: Encodable, Sendable {
            var fields: [String: String]
            var file: CoreAPI.Attachment

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    try container.encode(value, forKey: Key(name))
                }
                try container.encode(file, forKey: Key("file"))
            }

            struct Key: CodingKey {
                let stringValue: String
                var intValue: Int? { nil }
                init(_ string: String) { stringValue = string }
                init?(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
        }

        @Test(arguments: TestTransport.underTest)
        func quotesBackslashesAndNonASCIIInNamesSurviveTheRoundTrip(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let names = Names(
                fields: [#"say "hi""#: "1", #"back\slash"#: "2", "semi;colon": "3", "café": "4"],
                file: CoreAPI.Attachment(data: Data("x".utf8), filename: #"résumé "final"\v2.pdf"#)
            )
            let parsed = try await session.perform(
                MultipartUpload<Names, ParsedMultipart>(path: "/multipart", fields: names, encoder: .multipart)
            )
            #expect(parsed.parts.map(\.name) == [#"back\slash"#, "café", #"say "hi""#, "semi;colon", "file"])
            #expect(parsed.parts.map(\.text) == ["2", "4", "1", "3", nil])
            #expect(parsed.parts.last?.filename == #"résumé "final"\v2.pdf"#)
            #expect(parsed.parts.last?.contentType == "application/pdf")
        }

        struct LargeUpload: Encodable, Sendable {
            var title: String
            var file: CoreAPI.Attachment
        }

        /// An upload that hits the idle timeout is retried with the same body and a matching
        /// `Content-Length`: each attempt writes its own temporary file, since on Linux the file of an
        /// upload that was ended is cut to zero bytes.
        @Test(arguments: TestTransport.underTest)
        func aRetriedUploadSendsTheSameBodyAgain(transport: TestTransport) async throws {
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "retry.bin", size: 64 * 1024 * 1024)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            let configuration = ApiSession.makeDefaultConfiguration()
            configuration.timeoutIntervalForRequest = 1
            let session = transport.makeSession(
                hostProvider: server.hosts,
                configuration: configuration,
                middlewares: [
                    RetryMiddleware(
                        policy: RetryPolicy(
                            maximumAttempts: 2,
                            backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(100), jitter: .none)
                        )
                    )
                ]
            )
            let tag = "stall-first-\(UUID().uuidString)"
            let receipt = try await session.perform(
                MultipartUpload<LargeUpload, UploadReceipt>(
                    path: "/upload",
                    fields: LargeUpload(title: "retry", file: CoreAPI.Attachment(fileURL: file)),
                    encoder: MultipartFormDataEncoder(temporaryDirectory: bodyFiles.url),
                    httpMethod: .put,
                    tag: tag
                )
            )
            #expect(try server.count(tag: tag) == 2)
            #expect(receipt.contentLength == String(receipt.bodySize))
            #expect(receipt.bodySize > 64 * 1024 * 1024)
            #expect(try await bodyFiles.contents(settlingTo: 0).isEmpty)
        }

        @Test(arguments: TestTransport.underTest)
        func aHundredMegabyteFileIsStreamedFromATemporaryFile(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let size = 100 * 1024 * 1024
            let file = try scratch.makeFile(named: "big.bin", size: size)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            let progress = ProgressLog()
            let parsed = try await session.perform(
                MultipartUpload<LargeUpload, ParsedMultipart>(
                    path: "/multipart",
                    fields: LargeUpload(title: "big", file: CoreAPI.Attachment(fileURL: file)),
                    encoder: MultipartFormDataEncoder(temporaryDirectory: bodyFiles.url)
                ),
                progress: { progress.append($0) }
            )
            #expect(parsed.parts.map(\.name) == ["title", "file"])
            #expect(parsed.parts.last?.size == size)
            #expect(parsed.parts.last?.filename == "big.bin")
            #expect(parsed.parts.last?.contentType == "application/octet-stream")
            #expect(parsed.parts.last?.sha256 == (try Digest.sha256(of: file)))
            #expect(parsed.contentLength == String(parsed.bodySize))
            #expect(parsed.transferEncoding == nil)
            #expect(try bodyFiles.contents().isEmpty)
            let uploads = progress.values.filter { $0.direction == .upload }
            #expect(uploads.count > 1)
            #expect(uploads.last?.completedBytes == Int64(parsed.bodySize))
            #expect(uploads.last?.totalBytes == Int64(parsed.bodySize))
            #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        }

        @Test(arguments: TestTransport.underTest)
        func theTemporaryFileIsRemovedWhenTheServerRejectsTheUpload(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "data.bin", size: 3 * 1024 * 1024)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            let error = await #expect(throws: FixtureServiceError.self) {
                try await session.perform(
                    MultipartUpload<LargeUpload, ParsedMultipart>(
                        path: "/status/500",
                        fields: LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: file)),
                        encoder: MultipartFormDataEncoder(streamingThreshold: 1024, temporaryDirectory: bodyFiles.url)
                    )
                )
            }
            #expect(error?.status == 500)
            #expect(try bodyFiles.contents().isEmpty)
        }

        @Test(arguments: TestTransport.underTest)
        func theTemporaryFileIsRemovedWhenTheUploadIsCancelled(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "data.bin", size: 64 * 1024 * 1024)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            let started = AsyncStream<Void>.makeStream()
            let upload = Task {
                try await session.perform(
                    MultipartUpload<LargeUpload, UploadReceipt>(
                        path: "/upload",
                        fields: LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: file)),
                        encoder: MultipartFormDataEncoder(streamingThreshold: 1024, temporaryDirectory: bodyFiles.url)
                    ),
                    progress: { _ in started.continuation.yield() }
                )
            }
            for await _ in started.stream { break }
            #expect(try bodyFiles.contents().count == 1)
            upload.cancel()
            let result = await upload.result
            #expect(throws: ApiError.cancelled) { try result.get() }
            #expect(try await bodyFiles.contents(settlingTo: 0).isEmpty)
        }

        /// On Linux, cancelling an upload from a file while FoundationNetworking reads its next chunk
        /// crashed the process in about 1 of 15 cancels; 40 cancels at random moments would catch that.
        @Test(arguments: TestTransport.underTest)
        func cancellingUploadsAtRandomMomentsEndsEveryOneCleanly(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "data.bin", size: 48 * 1024 * 1024)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            var outcomes: [String: Int] = [:]
            for _ in 0..<40 {
                let upload = Task {
                    try await session.perform(
                        MultipartUpload<LargeUpload, UploadReceipt>(
                            path: "/upload",
                            fields: LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: file)),
                            encoder: MultipartFormDataEncoder(
                                streamingThreshold: 1024,
                                temporaryDirectory: bodyFiles.url
                            )
                        )
                    )
                }
                try await Task.sleep(for: .milliseconds(Int.random(in: 20...200)))
                upload.cancel()
                switch await upload.result {
                case .success: outcomes["completed", default: 0] += 1
                case .failure(ApiError.cancelled): outcomes["cancelled", default: 0] += 1
                case .failure(let error): outcomes["\(error)", default: 0] += 1
                }
            }
            #expect(Set(outcomes.keys).isSubset(of: ["completed", "cancelled"]), "\(outcomes)")
            #expect(outcomes["cancelled", default: 0] > 0, "\(outcomes)")
            #expect(try await bodyFiles.contents(settlingTo: 0).isEmpty)
        }

        @Test(arguments: TestTransport.underTest)
        func aCancelledTaskLeavesNoBodyFileAndSendsNothing(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "data.bin", size: 64 * 1024 * 1024)
            let bodyFiles = try ScratchDirectory()
            defer { bodyFiles.remove() }
            let tag = "cancel-encoding-\(UUID().uuidString)"
            let gate = AsyncStream<Void>.makeStream()
            let upload = Task {
                // Starts only once cancelled, so the body file is written by a cancelled task.
                for await _ in gate.stream {}
                return try await session.perform(
                    MultipartUpload<LargeUpload, UploadReceipt>(
                        path: "/upload",
                        fields: LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: file)),
                        encoder: MultipartFormDataEncoder(streamingThreshold: 1024, temporaryDirectory: bodyFiles.url),
                        tag: tag
                    )
                )
            }
            upload.cancel()
            gate.continuation.finish()
            let result = await upload.result
            #expect(throws: ApiError.cancelled) { try result.get() }
            #expect(try bodyFiles.contents().isEmpty)
            #expect(try server.count(tag: tag) == 0)
        }

        @Test(arguments: TestTransport.underTest)
        func anUnreadableAttachmentFailsBeforeAnythingIsSent(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let missing = URL(fileURLWithPath: "/nonexistent/coreapi/\(UUID().uuidString).bin")
            let tag = "unreadable-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    MultipartUpload<LargeUpload, ParsedMultipart>(
                        path: "/multipart",
                        fields: LargeUpload(title: "x", file: CoreAPI.Attachment(fileURL: missing)),
                        encoder: .multipart,
                        tag: tag
                    )
                )
            }
            #expect(error == .invalidRequest(.unreadableFile(path: missing.path)))
            #expect(try server.count(tag: tag) == 0)
        }

        @Test(arguments: TestTransport.underTest)
        func multipartOnGetFailsBeforeAnythingIsSent(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let tag = "multipart-get-\(UUID().uuidString)"
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    MultipartUpload<LargeUpload, ParsedMultipart>(
                        path: "/multipart",
                        fields: LargeUpload(title: "x", file: CoreAPI.Attachment(data: Data(), filename: "a")),
                        encoder: .multipart,
                        httpMethod: .get,
                        tag: tag
                    )
                )
            }
            guard case .invalidRequest(.encoding) = error else {
                Issue.record("expected an encoding error, got \(String(describing: error))")
                return
            }
            #expect(try server.count(tag: tag) == 0)
        }
    }
}
