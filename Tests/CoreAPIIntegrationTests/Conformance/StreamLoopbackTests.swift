import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

/// Responses read as they arrive over real HTTP, on every transport: each piece when the server wrote
/// it, server-sent events with reconnection, JSON Lines with a typed error for a broken line.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct StreamLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// Five events written 200 ms apart arrive 200 ms apart, each as soon as it was written, not
        /// when the stream ends.
        @Test(arguments: TestTransport.underTest)
        func eventsArriveAsTheServerWritesThem(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let start = ContinuousClock.now
            var arrivals: [(ServerSentEvents.Event, Duration)] = []
            for try await event in session.events(WatchTicks(name: uniqueName("timed"), count: 5, ms: 200)) {
                arrivals.append((event, ContinuousClock.now - start))
            }
            #expect(arrivals.map(\.0.id) == ["1", "2", "3", "4", "5"])
            #expect(arrivals.map(\.0.data) == (1...5).map { "{\"n\": \($0)}" })
            #expect(arrivals.allSatisfy { $0.0.event == "tick" })
            let gaps = zip(arrivals.dropFirst(), arrivals).map { $0.1 - $1.1 }
            print("SSE arrivals (\(transport)):", arrivals.map { "\($0.1)" }, "gaps:", gaps.map { "\($0)" })
            // Written 200 ms apart: a stream delivered at its end would show gaps near zero.
            #expect(gaps.allSatisfy { $0 > .milliseconds(120) && $0 < .milliseconds(1_000) })
        }

        /// The stream closes after three events; each reconnection sends the last event ID and gets the
        /// next ones, until the server answers 204.
        @Test(arguments: TestTransport.underTest)
        func reconnectionsContinueFromTheLastEventID(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("reconnect")
            let events = session.events(
                WatchTicks(name: name, count: 3, total: 7, ms: 10),
                reconnection: ServerSentEvents.Reconnection(delay: .milliseconds(50))
            )
            var ids: [String?] = []
            for try await event in events {
                ids.append(event.id)
            }
            #expect(ids == ["1", "2", "3", "4", "5", "6", "7"])
            #expect(try server.eventRequests(name: name) == ["", "3", "6", "7"])
        }

        /// A stream served as `text/html` is not read as events: it throws `unacceptableContentType`
        /// naming the type, and is not opened again, whatever the reconnection says.
        @Test(arguments: TestTransport.underTest)
        func anotherMediaTypeThrowsWithoutReconnecting(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("html")
            let events = session.events(
                WatchTicks(name: name, count: 3, ms: 10, type: "text/html; charset=utf-8"),
                reconnection: ServerSentEvents.Reconnection(delay: .milliseconds(10))
            )
            var received: [ServerSentEvents.Event] = []
            await #expect {
                for try await event in events {
                    received.append(event)
                }
            } throws: { error in
                guard case .unacceptableContentType(let failure) = error as? ApiError else { return false }
                return failure.contentType == "text/html; charset=utf-8" && failure.acceptable == ["text/event-stream"]
                    && failure.statusCode == 200
            }
            #expect(received.isEmpty)
            try await waitUntil { session.callsInFlight.isEmpty }
            #expect(try server.eventRequests(name: name) == [""])
        }

        /// A `retry` of 30 s from the server is held to the reconnection's cap of 100 ms: the seven events,
        /// three per connection, all arrive well before the server's 30 s would have passed once.
        @Test(arguments: TestTransport.underTest)
        func theServersRetryIsCapped(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("retry-cap")
            let events = session.events(
                WatchTicks(name: name, count: 3, total: 7, ms: 10, retry: 30_000),
                reconnection: ServerSentEvents.Reconnection(
                    backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100))
                )
            )
            let start = ContinuousClock.now
            var ids: [String?] = []
            for try await event in events {
                ids.append(event.id)
            }
            #expect(ids == ["1", "2", "3", "4", "5", "6", "7"])
            #expect(ContinuousClock.now - start < .seconds(30))
            #expect(try server.eventRequests(name: name) == ["", "3", "6", "7"])
        }

        /// Leaving the loop over the events ends the call: the server's next connection never comes.
        @Test(arguments: TestTransport.underTest)
        func leavingTheLoopEndsTheCall(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("leave")
            let events = session.events(
                WatchTicks(name: name, count: 100, ms: 20),
                reconnection: ServerSentEvents.Reconnection(delay: .milliseconds(10))
            )
            for try await event in events where event.id == "3" {
                break
            }
            try await waitUntil { session.callsInFlight.isEmpty }
            #expect(try server.eventRequests(name: name).count == 1)
        }

        /// A JSON Lines body decodes record by record; a broken line throws with its number after the
        /// records before it.
        @Test(arguments: TestTransport.underTest)
        func jsonLinesDecodeUntilABrokenLine(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            var records: [Record] = []
            for try await record in try await session.stream(GetRecords(count: 50)).jsonLines(of: Record.self) {
                records.append(record)
            }
            #expect(records == (1...50).map(Record.init))
            var before: [Record] = []
            await #expect {
                for try await record in try await session.stream(GetRecords(count: 20, bad: 7)).jsonLines(
                    of: Record.self
                ) {
                    before.append(record)
                }
            } throws: { error in
                let failure = error as? JSONLines<Record>.RecordFailure
                return failure?.record == 7 && failure?.underlying is DecodingError
            }
            #expect(before == (1...6).map(Record.init))
        }

        /// The method's deadline ends a stream read with its limits midway, with `timeout`; unlimited,
        /// the same stream runs past it to its end.
        @Test(arguments: TestTransport.underTest)
        func theDeadlineAppliesUnlessTheCallOptsOut(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let method = WatchTicks(name: uniqueName("deadline"), count: 6, ms: 200, deadline: .seconds(0.5))
            var pieces = 0
            await #expect(throws: ApiError.timeout) {
                for try await _ in try await session.stream(method).body {
                    pieces += 1
                }
            }
            #expect((1...4).contains(pieces))
            let whole = try await session.stream(method, limits: .unlimited).body.collect(upTo: .max)
            #expect(String(decoding: whole, as: UTF8.self).components(separatedBy: "event: tick").count == 7)
        }

        /// A status the method does not accept throws from `stream` itself, with its body.
        @Test(arguments: TestTransport.underTest)
        func aStatusErrorThrowsBeforeTheBody(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            await #expect {
                _ = try await session.stream(StatusCall(code: 503))
            } throws: { error in
                (error as? FixtureServiceError)?.status == 503
            }
        }

        /// With the method's limits, the size limit refuses a body whose declared length passes it before
        /// the body, ends one without a declared length with `responseTooLarge` once passed, and unlimited,
        /// the same body arrives whole.
        @Test(arguments: TestTransport.underTest)
        func theSizeLimitAppliesUnlessTheCallOptsOut(transport: TestTransport) async throws {
            let session = transport.makeSession(
                hostProvider: server.hosts,
                defaults: CallOptions(maximumResponseSize: 1 << 20)
            )
            let method = GetDownload(size: 3 << 20, name: uniqueName("limit"))
            await #expect(throws: ApiError.responseTooLarge(limit: 1 << 20)) {
                _ = try await session.stream(method)
            }
            let undeclared = try await session.stream(GetRecords(count: 100_000))  // about 1.5 MB
            await #expect(throws: ApiError.responseTooLarge(limit: 1 << 20)) {
                _ = try await undeclared.body.collect(upTo: .max)
            }
            let unlimited = try await session.stream(method, limits: .unlimited)
            #expect(try await unlimited.body.collect(upTo: .max).count == 3 << 20)
            var lines = 0
            for try await _ in try await session.stream(GetRecords(count: 12)).lines {
                lines += 1
            }
            #expect(lines == 12)
        }
    }
}
