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
            let stub = StubTransport(fallback: .failure(.timeout))
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

        /// A span that records nothing (sampled out) is given no attribute and no status, but its context
        /// is still injected into every request, and it is ended.
        @Test(arguments: [nil, ApiError.timeout] as [ApiError?])
        func aSpanThatRecordsNothingIsOnlyInjectedAndEnded(failure: ApiError?) async throws {
            let tracer = SampledOutTracer()
            let stub = failure.map { StubTransport(fallback: .failure($0)) } ?? ObservedCall.makeTransport()
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [TracingMiddleware(tracer: tracer), ObservedCall.retry]
            )
            _ = try? await session.perform(ObservedGet())

            let sent = stub.requests.map { $0.headers.values(for: SampledOutTracer.header) }
            #expect(!sent.isEmpty)
            #expect(sent.allSatisfy { $0 == ["sampled-out"] })
            let counts = tracer.log.counts
            #expect(counts.started == stub.requests.count + 1)  // one per request, and the call's
            #expect(counts.ended == counts.started)
            #expect(counts.touched == 0, "a span that records nothing was given attributes, a status or an error")
        }
    }

    /// A tracer whose spans record nothing, as a sampler that drops a trace makes them, while their
    /// context is still propagated; it counts what is done to its spans.
    private struct SampledOutTracer: Tracer {
        static let header = "x-sampled"

        /// What was done to the tracer's spans.
        final class Log: @unchecked Sendable {  // `values` is only touched under `lock`
            struct Counts {
                var started = 0
                var ended = 0
                /// Attributes set, statuses set, errors and events recorded, links added, renames.
                var touched = 0
            }

            private let lock = NSLock()
            private var values = Counts()

            func count(_ change: (inout Counts) -> Void) {
                lock.withLock { change(&values) }
            }

            var counts: Counts { lock.withLock { values } }
        }

        let log = Log()

        func startSpan<Instant: TracerInstant>(
            _ operationName: String,
            context: @autoclosure () -> ServiceContext,
            ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant,
            function: String,
            file fileID: String,
            line: UInt
        ) -> Span {
            log.count { $0.started += 1 }
            return Span(context: context(), operationName: operationName, log: log)
        }

        func forceFlush() {}

        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier,
            into context: inout ServiceContext,
            using extractor: Extract
        ) where Extract.Carrier == Carrier {}

        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext,
            into carrier: inout Carrier,
            using injector: Inject
        ) where Inject.Carrier == Carrier {
            injector.inject("sampled-out", forKey: Self.header, into: &carrier)
        }

        final class Span: Tracing.Span {
            let context: ServiceContext
            var operationName: String {
                get { name }
                set { log.count { $0.touched += 1 } }
            }
            private let name: String
            private let log: Log

            init(context: ServiceContext, operationName: String, log: Log) {
                self.context = context
                self.name = operationName
                self.log = log
            }

            var isRecording: Bool { false }

            var attributes: SpanAttributes {
                get { [:] }
                set { log.count { $0.touched += 1 } }
            }

            func setStatus(_ status: SpanStatus) { log.count { $0.touched += 1 } }

            func addEvent(_ event: SpanEvent) { log.count { $0.touched += 1 } }

            func recordError<Instant: TracerInstant>(
                _ error: any Error,
                attributes: SpanAttributes,
                at instant: @autoclosure () -> Instant
            ) {
                log.count { $0.touched += 1 }
            }

            func addLink(_ link: SpanLink) { log.count { $0.touched += 1 } }

            func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
                log.count { $0.ended += 1 }
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
