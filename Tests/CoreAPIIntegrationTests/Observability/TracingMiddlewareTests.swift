#if Tracing
    import CoreAPI
    import CoreAPITesting
    import CoreAPITracing
    import Foundation
    import InMemoryTracing
    import Testing
    import Tracing

    @Suite struct TracingMiddlewareTests {
        /// Every attribute value of `spans` as text.
        static func attributeTexts(_ spans: [FinishedInMemorySpan]) -> [String] {
            var texts: [String] = []
            for span in spans {
                span.attributes.forEach { name, value in texts.append("\(name)=\(value)") }
            }
            return texts
        }

        @Test func aCallSpanParentsOneClientSpanPerAttemptAndRedirect() async throws {
            let tracer = InMemoryTracer()
            let stub = ObservedCall.makeTransport()
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [TracingMiddleware(tracer: tracer), ObservedCall.retry]
            )
            _ = try await session.perform(ObservedGet())

            let spans = tracer.finishedSpans
            let call = try #require(spans.first { $0.kind == .internal })
            let clients = spans.filter { $0.kind == .client }
            #expect(spans.count == 4)
            #expect(call.operationName == "ObservedGet")
            #expect(call.attributes.get("http.response.status_code") == .int64(200))
            // The 503, the 302 and the 200, in order, children of the call's span.
            let statuses = clients.map { $0.attributes.get("http.response.status_code") }
            #expect(statuses == [.int64(503), .int64(302), .int64(200)])
            #expect(
                clients.map { $0.attributes.get("http.request.resend_count") } == [.int64(0), .int64(1), .int64(2)]
            )
            #expect(clients.allSatisfy { $0.operationName == "GET" && $0.parentSpanID == call.spanID })
            #expect(clients.allSatisfy { $0.traceID == call.traceID })
            #expect(clients.map { $0.status?.code } == [.error, nil, nil])
            #expect(clients.first?.attributes.get("error.type") == .string("503"))
            #expect(
                clients.first?.attributes.get("url.full")
                    == .string("https://api.example.com/orders/42?access_token=<redacted>&page=2")
            )

            // Each request carries exactly its own span's context.
            let sent = stub.requests.map { $0.headers.values(for: InMemoryTracer.spanIDKey) }
            #expect(sent == clients.map { [$0.spanID] })
            #expect(stub.requests.allSatisfy { $0.headers.values(for: InMemoryTracer.traceIDKey) == [call.traceID] })

            for text in Self.attributeTexts(spans) {
                #expect(ObservedCall.isFreeOfSecrets(text), "a span attribute holds a secret: \(text)")
            }
        }

        @Test func aFailureIsRecordedOnBothSpans() async throws {
            let tracer = InMemoryTracer()
            let stub = StubTransport(fallback: .failure(.timedOut))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [TracingMiddleware(tracer: tracer)]
            )
            await #expect(throws: ApiError.timeout) { try await session.perform(ObservedGet()) }
            let spans = tracer.finishedSpans
            #expect(spans.map(\.kind) == [.client, .internal])
            for span in spans {
                #expect(span.status?.code == .error)
                #expect(span.errors.count == 1)
                #expect(span.attributes.get("error.type") == .string("timeout"))
            }
        }
    }
#endif

#if Tracing && Logging
    import CoreAPILogging
    import InMemoryLogging
    import Logging

    extension TracingMiddlewareTests {
        @Test func logRecordsCarryTheCallsTraceAndSpanIdentifiers() async throws {
            let tracer = InMemoryTracer()
            var handler = InMemoryLogHandler()
            handler.metadataProvider = Logger.MetadataProvider {
                guard let context = ServiceContext.current?.inMemorySpanContext else { return [:] }
                return ["trace_id": .string(context.traceID), "span_id": .string(context.spanID)]
            }
            let logger = Logger(label: "api") { [handler] _ in handler }
            let stub = ObservedCall.makeTransport()
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [TracingMiddleware(tracer: tracer), ObservedCall.retry, LoggingMiddleware(logger: logger)]
            )
            _ = try await session.perform(ObservedGet())
            let call = try #require(tracer.finishedSpans.first { $0.kind == .internal })
            #expect(handler.entries.count == 2)
            for entry in handler.entries {
                #expect(entry.metadata["trace_id"] == .string(call.traceID))
                #expect(entry.metadata["span_id"] == .string(call.spanID))
            }
        }
    }
#endif
