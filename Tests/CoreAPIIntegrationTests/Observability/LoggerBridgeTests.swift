#if Logging
    import CoreAPI
    import CoreAPILogging
    import CoreAPITesting
    import Foundation
    import InMemoryLogging
    import Logging
    import Testing

    @Suite struct LoggerBridgeTests {
        /// A logger writing to `handler`, at `.info`.
        static func makeLogger(_ handler: InMemoryLogHandler) -> Logger {
            Logger(label: "api") { _ in handler }
        }

        @Test func eachAttemptIsOneStructuredRecordWithoutSecrets() async throws {
            let handler = InMemoryLogHandler()
            let stub = ObservedCall.makeTransport()
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [ObservedCall.retry, LoggingMiddleware(logger: Self.makeLogger(handler))]
            )
            _ = try await session.perform(ObservedGet())

            let entries = handler.entries
            // Two attempts: the 503, then the redirect followed below the chain to the 200.
            #expect(entries.map(\.level) == [.warning, .info])
            let metadata = entries.map(\.metadata)
            #expect(metadata.map { $0["http.response.status_code"] } == ["503", "200"])
            #expect(metadata.map { $0["coreapi.attempt"] } == ["1", "2"])
            #expect(metadata.map { $0["error.type"] } == ["status", nil])
            for values in metadata {
                #expect(values["coreapi.method"] == "ObservedGet")
                #expect(values["http.request.method"] == "GET")
                #expect(values["url.full"] == "https://api.example.com/orders/42?access_token=<redacted>&page=2")
                let seconds = try #require(values["coreapi.duration"].flatMap { Double("\($0)") })
                #expect(seconds >= 0)
            }
            for entry in entries {
                let text = "\(entry.message) \(entry.metadata)"
                #expect(ObservedCall.isFreeOfSecrets(text), "a secret was logged: \(text)")
            }
        }

        @Test func aFailureIsAnErrorRecordWithItsCategory() async throws {
            let handler = InMemoryLogHandler()
            let stub = StubTransport(fallback: .failure(.timeout))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [LoggingMiddleware(logger: Self.makeLogger(handler))]
            )
            await #expect(throws: ApiError.timeout) { try await session.perform(ObservedGet()) }
            let entry = try #require(handler.entries.first)
            #expect(handler.entries.count == 1)
            #expect(entry.level == .error)
            #expect(entry.metadata["error.type"] == "timeout")
            #expect(entry.metadata["http.response.status_code"] == nil)
        }

        @Test func debugAddsTheRequestRecordAtDebugLevel() async throws {
            var handler = InMemoryLogHandler()
            handler.logLevel = .debug
            let stub = StubTransport(fallback: .text("{}"))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [LoggingMiddleware(logger: Self.makeLogger(handler), level: .debug)]
            )
            _ = try await session.perform(ObservedGet())
            #expect(handler.entries.map(\.level) == [.debug, .info])
            for entry in handler.entries {
                let text = "\(entry.message) \(entry.metadata)"
                #expect(ObservedCall.isFreeOfSecrets(text), "a secret was logged: \(text)")
            }
        }
    }
#endif
