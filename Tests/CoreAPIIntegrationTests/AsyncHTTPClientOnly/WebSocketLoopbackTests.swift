#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIAsyncHTTPClient
    import CoreAPITesting
    import Foundation
    import Testing

    /// WebSockets over `AsyncHTTPClientTransport` (SwiftNIO) against a loopback `websockets` server:
    /// echo, order, the size limit both ways, the server's close code, headers and middlewares on the
    /// handshake, a refused handshake, a ping timeout, cancellation and reconnection.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct WebSocketLoopbackTests {
        struct Endpoint: WebSocket.Method {
            @Excluded var route: String
            var name: String
            var options = WebSocket.Options(pingInterval: nil)
            var extra: [String: String] = [:]
            var hostProviderKey: String { "ws" }
            var path: String { route }
            var webSocketOptions: WebSocket.Options { options }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode(name, forKey: AnyKey("name"))
                for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
                    try container.encode(value, forKey: AnyKey(key))
                }
            }
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        struct Note: Codable, Equatable {
            var text: String
        }

        let fixture: WebSocketFixture

        init() async throws {
            fixture = try await WebSocketFixture.shared()
        }

        /// Called without a session, the transport checks the handshake's fields itself: a name that is
        /// no token ends with the typed error before anything is sent (port 9 would refuse a connection,
        /// which would end with `cannotConnect`).
        @Test func aHandshakeWithABadFieldNameIsRefusedBeforeItIsSent() async throws {
            let url = try #require(URL(string: "ws://127.0.0.1:9/echo"))
            let request = ApiRequest(url: url, headers: ["Bad Name": "value"])
            await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Bad Name"))) {
                _ = try await TestTransport.sharedAsyncHTTPClientTransport.openWebSocket(
                    request,
                    options: WebSocket.Options(pingInterval: nil)
                )
            }
        }

        private func session(_ middlewares: [any Middleware] = []) -> ApiSession {
            ApiSession(
                hostProvider: fixture.hosts,
                transport: TestTransport.sharedAsyncHTTPClientTransport,
                headers: ["X-Client": "loopback"],
                middlewares: middlewares
            )
        }

        private func nextMessage(_ events: inout WebSocket.Events.AsyncIterator) async throws -> WebSocket.Message? {
            guard case .message(let message) = try await events.next() else { return nil }
            return message
        }

        @Test func textBinaryAndJSONEcho() async throws {
            let socket = try await session().webSocket(Endpoint(route: "/echo", name: uniqueName("echo")))
            var events = socket.events.makeAsyncIterator()
            try await socket.send(.text("héllo"))
            #expect(try await nextMessage(&events) == .text("héllo"))
            let bytes = Data((0...255).map { UInt8($0) })
            try await socket.send(.binary(bytes))
            #expect(try await nextMessage(&events) == .binary(bytes))
            try await socket.send(json: Note(text: "typed"))
            #expect(try await nextMessage(&events)?.decode(Note.self) == Note(text: "typed"))
            await socket.close(.normalClosure, reason: "done")
            #expect(try await events.next() == .closed(WebSocket.Closure(code: .normalClosure, reason: "done")))
        }

        /// A thousand messages each way arrive whole and in order; prints the echo round trip and the
        /// rate of a stream of messages.
        @Test func aThousandMessagesInOrder() async throws {
            let count = 1000
            let socket = try await session().webSocket(
                Endpoint(route: "/burst", name: uniqueName("burst"), extra: ["count": "\(count)"])
            )
            var events = socket.events.makeAsyncIterator()
            let clock = ContinuousClock()
            let burstStart = clock.now
            for index in 0..<count {
                #expect(try await nextMessage(&events) == .text("m \(index)"))
            }
            let burst = clock.now - burstStart
            var roundTrips: [Duration] = []
            for index in 0..<count {
                let start = clock.now
                try await socket.send(.text("c \(index)"))
                #expect(try await nextMessage(&events) == .text("c \(index)"))
                roundTrips.append(clock.now - start)
            }
            roundTrips.sort()
            let perSecond =
                Double(count) / (Double(burst.components.attoseconds) / 1e18 + Double(burst.components.seconds))
            print(
                "WebSocket loopback: echo round trip median \(roundTrips[count / 2]), p90 \(roundTrips[count * 9 / 10]); "
                    + "\(Int(perSecond)) messages/s received in a burst of \(count)"
            )
            await socket.close()
        }

        @Test func theSizeLimitHoldsBothWays() async throws {
            let limit = 1 << 20
            let options = WebSocket.Options(maximumMessageSize: limit, pingInterval: nil)
            let name = uniqueName("big")
            let fits = try await session().webSocket(
                Endpoint(route: "/big", name: name, options: options, extra: ["size": "\(limit)"])
            )
            var events = fits.events.makeAsyncIterator()
            #expect(try await nextMessage(&events)?.size == limit)
            try await fits.send(.binary(Data(count: limit)))
            #expect(try await nextMessage(&events)?.size == limit)
            await #expect(throws: WebSocket.Failure.messageTooLarge(limit: limit)) {
                try await fits.send(.binary(Data(count: limit + 1)))
            }
            await fits.close()

            let tooBig = uniqueName("too-big")
            let over = try await session().webSocket(
                Endpoint(route: "/big", name: tooBig, options: options, extra: ["size": "\(limit + 1)"])
            )
            await #expect(throws: WebSocket.Failure.messageTooLarge(limit: limit)) {
                for try await _ in over.events {}
            }
            try await waitUntil(timeout: .seconds(5)) { (try? fixture.closures(name: tooBig).count) == 1 }
            #expect(try fixture.closures(name: tooBig).first?.code == .messageTooBig)
            #expect(over.closure == WebSocket.Closure(code: .messageTooBig))
        }

        /// A message over the limit closes the connection with 1009, and the closing handshake completes:
        /// the closure is the code of the server's answer (RFC 6455 §7.1.5), not 1006. Messages in one
        /// frame and in fragments each within the limit, and one far larger, which is dropped unread.
        @Test(arguments: [(5000, 1), (2000, 5), (8_000_000, 1), (8_000_000, 100)])
        func aMessageOverTheLimitEndsWithTheServersAnswer(size: Int, fragments: Int) async throws {
            let options = WebSocket.Options(maximumMessageSize: 1000, pingInterval: nil)
            let name = uniqueName("over")
            let socket = try await session().webSocket(
                Endpoint(
                    route: "/big",
                    name: name,
                    options: options,
                    extra: ["size": "\(size)", "fragments": "\(fragments)"]
                )
            )
            var events = socket.events.makeAsyncIterator()
            await #expect(throws: WebSocket.Failure.messageTooLarge(limit: 1000)) {
                _ = try await events.next()
            }
            #expect(socket.closure == WebSocket.Closure(code: .messageTooBig))
            #expect(try await events.next() == nil)
            try await waitUntil(timeout: .seconds(5)) { (try? fixture.closures(name: name).count) == 1 }
            #expect(try fixture.closures(name: name) == [WebSocket.Closure(code: .messageTooBig)])
        }

        /// The client's close waits for the server's close frame, which here comes 1.5 s later, after
        /// the old fixed wait of 1 s, and with a code of its own: that code is the closure.
        @Test func theClientsCloseEndsWithTheServersAnswer() async throws {
            let name = uniqueName("late")
            let socket = try await session().webSocket(
                Endpoint(route: "/late-answer", name: name, extra: ["delay": "1.5"])
            )
            var events = socket.events.makeAsyncIterator()
            try await socket.send(.text("pause"))
            #expect(try await nextMessage(&events) == .text("paused"))
            await socket.close(.normalClosure, reason: "done")
            let answer = WebSocket.Closure(code: WebSocket.CloseCode(rawValue: 4002), reason: "late answer")
            #expect(try await events.next() == .closed(answer))
            #expect(socket.closure == answer)
            #expect(try await events.next() == nil)
            try await waitUntil(timeout: .seconds(5)) { (try? fixture.closures(name: name).count) == 1 }
            #expect(try fixture.closures(name: name) == [WebSocket.Closure(code: .normalClosure, reason: "done")])
        }

        /// A server that never answers the client's close frame is cut off after
        /// ``WebSocket/Options/closeTimeout``; without a close frame received, the closure is 1006.
        @Test func aCloseTheServerNeverAnswersIsCutAtTheCloseTimeout() async throws {
            let options = WebSocket.Options(pingInterval: nil, closeTimeout: .milliseconds(300))
            let socket = try await session().webSocket(
                Endpoint(route: "/late-answer", name: uniqueName("never"), options: options, extra: ["delay": "30"])
            )
            var events = socket.events.makeAsyncIterator()
            try await socket.send(.text("pause"))
            #expect(try await nextMessage(&events) == .text("paused"))
            let start = ContinuousClock.now
            await socket.close(.normalClosure, reason: "done")
            #expect(try await events.next() == .closed(WebSocket.Closure(code: .abnormalClosure)))
            #expect(socket.closure == WebSocket.Closure(code: .abnormalClosure))
            #expect(ContinuousClock.now - start < .seconds(20))
        }

        @Test func theServersCloseCodeAndReasonArrive() async throws {
            let socket = try await session().webSocket(Endpoint(route: "/close", name: uniqueName("close")))
            var events: [WebSocket.Event] = []
            for try await event in socket.events {
                events.append(event)
            }
            let closure = WebSocket.Closure(code: WebSocket.CloseCode(rawValue: 4001), reason: "room closed")
            #expect(events == [.message(.text("bye")), .closed(closure)])
            #expect(socket.closure == closure)
        }

        @Test func theHandshakeCarriesHeadersAndMiddlewareTokens() async throws {
            let socket = try await session([HeadersMiddleware.bearer { "token-1" }])
                .webSocket(Endpoint(route: "/headers", name: uniqueName("headers")))
            var events = socket.events.makeAsyncIterator()
            let message = try #require(try await nextMessage(&events))
            let headers = try message.decode([String: String].self)
            #expect(headers["authorization"] == "Bearer token-1")
            #expect(headers["x-client"] == "loopback")
            #expect(headers["upgrade"]?.lowercased() == "websocket")
            #expect(headers["host"]?.hasPrefix("127.0.0.1:") == true)
            await socket.close()
        }

        @Test func aRefusedHandshakeIsUnauthorized() async throws {
            await #expect {
                _ = try await session().webSocket(Endpoint(route: "/private", name: uniqueName("private")))
            } throws: { error in
                guard case .unauthorized(let failure) = error as? ApiError else { return false }
                return failure.statusCode == 401 && String(decoding: failure.body, as: UTF8.self) == "token required\n"
            }
            let socket = try await session([HeadersMiddleware.bearer { "good" }])
                .webSocket(Endpoint(route: "/private", name: uniqueName("private")))
            try await socket.send(.text("in"))
            var events = socket.events.makeAsyncIterator()
            #expect(try await nextMessage(&events) == .text("in"))
            await socket.close()
        }

        @Test func aServerThatStopsReadingTimesOut() async throws {
            let options = WebSocket.Options(
                pingInterval: .milliseconds(100),
                pingTimeout: .milliseconds(300),
                closeTimeout: .milliseconds(500)
            )
            let socket = try await session().webSocket(
                Endpoint(route: "/silent", name: uniqueName("silent"), options: options)
            )
            let start = ContinuousClock.now
            var events = socket.events.makeAsyncIterator()
            #expect(try await nextMessage(&events) == .text("ready"))
            await #expect(throws: WebSocket.Failure.pingTimeout) {
                while try await events.next() != nil {}
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }

        @Test func cancellingTheReaderClosesTheConnection() async throws {
            let name = uniqueName("cancel")
            let socket = try await session().webSocket(Endpoint(route: "/echo", name: name))
            let reader = Task {
                for try await _ in socket.events {}
            }
            try await Task.sleep(for: .milliseconds(100))
            reader.cancel()
            await #expect(throws: ApiError.cancelled) {
                try await reader.value
            }
            try await waitUntil(timeout: .seconds(5)) { (try? fixture.closures(name: name).count) == 1 }
            #expect(try fixture.closures(name: name).first?.code == .goingAway)
        }

        @Test func aDroppedConnectionIsOpenedAgain() async throws {
            let tokens = TokenCounter()
            let options = WebSocket.Options(
                pingInterval: nil,
                reconnection: WebSocket.Reconnection(initialDelay: .milliseconds(20))
            )
            let socket = try await session([HeadersMiddleware.bearer { tokens.next() }])
                .webSocket(Endpoint(route: "/drop-once", name: uniqueName("drop"), options: options))
            var events = socket.events.makeAsyncIterator()
            #expect(try await nextMessage(&events) == .text("first"))
            #expect(try await events.next() == .reconnected(attempt: 1))
            #expect(try await nextMessage(&events) == .text("second Bearer token-2"))
            try await socket.send(.text("still here"))
            #expect(try await nextMessage(&events) == .text("still here"))
            await socket.close()
        }
    }

    /// Hands out `token-1`, `token-2`, … to the handshakes of one test.
    final class TokenCounter: Sendable {
        private let count = LockedList<Int>()

        func next() -> String {
            count.append(0)
            return "token-\(count.values.count)"
        }
    }
#endif
