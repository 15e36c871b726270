import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// Reconnection over the stub: which endings reopen the connection, how the reader learns of it, the
/// attempt limit, and a close while a connection is being reopened.
extension WebSocketTests {
    /// A dropped connection is opened again through the whole handshake (the token middleware runs
    /// again), and the reader learns of it between the two connections' messages.
    @Test func aLostConnectionIsReopenedAndTheReaderIsTold() async throws {
        let peers = [StubTransport.WebSocketPeer(), StubTransport.WebSocketPeer()]
        let handshakes = LockedToken("0")
        transport.onWebSocket("*") { _ in
            let index = Int(handshakes.value)!
            handshakes.value = String(index + 1)
            return .accept(peers[index])
        }
        let tokens = LockedToken("")
        let session = session([
            HeadersMiddleware.bearer {
                tokens.value += "t"
                return tokens.value
            }
        ])
        let options = WebSocket.Options(
            pingInterval: nil,
            reconnection: WebSocket.Reconnection(initialDelay: .milliseconds(5))
        )
        let socket = try await session.webSocket(ChatSocket(options: options))
        peers[0].send(.text("before"))
        peers[0].drop()
        var events = socket.events.makeAsyncIterator()
        #expect(try await events.next() == .message(.text("before")))
        #expect(try await events.next() == .reconnected(attempt: 1))
        peers[1].send(.text("after"))
        #expect(try await events.next() == .message(.text("after")))
        #expect(transport.webSocketRequests.map { $0.headers["Authorization"] } == ["Bearer t", "Bearer tt"])
        try await socket.send(.text("to the new one"))
        #expect(peers[1].received == [.text("to the new one")])
    }

    /// The server's close code decides: "try again" codes reconnect, an application's own code ends.
    @Test(arguments: [(UInt16(1012), true), (1013, true), (1001, true), (4001, false), (1000, false), (1008, false)])
    func closeCodesThatReconnect(code: UInt16, reconnects: Bool) async throws {
        let peers = [StubTransport.WebSocketPeer(), StubTransport.WebSocketPeer()]
        let handshakes = LockedToken("0")
        transport.onWebSocket("*") { _ in
            let index = Int(handshakes.value)!
            handshakes.value = String(index + 1)
            return .accept(peers[min(index, 1)])
        }
        let options = WebSocket.Options(
            pingInterval: nil,
            reconnection: WebSocket.Reconnection(initialDelay: .milliseconds(1))
        )
        let socket = try await session().webSocket(ChatSocket(options: options))
        let closure = WebSocket.Closure(code: WebSocket.CloseCode(rawValue: code), reason: "bye")
        peers[0].close(closure.code, reason: "bye")
        var events = socket.events.makeAsyncIterator()
        if reconnects {
            #expect(try await events.next() == .reconnected(attempt: 1))
            peers[1].close(.normalClosure)
            #expect(try await events.next() == .closed(WebSocket.Closure(code: .normalClosure)))
        } else {
            #expect(try await events.next() == .closed(closure))
        }
        #expect(try await events.next() == nil)
    }

    /// A server that accepts and drops at once, again and again, meets the attempt limit: attempts
    /// count from the last message, not from the last successful handshake.
    @Test func reconnectionGivesUpOnAServerThatDropsAtOnce() async throws {
        let handshakes = LockedToken("0")
        transport.onWebSocket("*") { _ in
            handshakes.value = String(Int(handshakes.value)! + 1)
            let peer = StubTransport.WebSocketPeer()
            peer.drop()
            return .accept(peer)
        }
        let policy = WebSocket.Reconnection(maximumAttempts: 3, initialDelay: .milliseconds(1))
        let socket = try await session().webSocket(
            ChatSocket(options: WebSocket.Options(pingInterval: nil, reconnection: policy))
        )
        var events: [WebSocket.Event] = []
        await #expect(throws: WebSocket.Failure.connectionLost) {
            for try await event in socket.events {
                events.append(event)
            }
        }
        #expect(events == [.reconnected(attempt: 1), .reconnected(attempt: 2), .reconnected(attempt: 3)])
        #expect(handshakes.value == "4")
        // Doubled twice from 1 ms, spread by equal jitter between half of it and all of it.
        #expect((Duration.milliseconds(2)...Duration.milliseconds(4)).contains(policy.delay(beforeAttempt: 3)))
    }

    /// A close while a lost connection is being opened again wins: the new connection is not kept and
    /// the reader gets the client's closure.
    @Test func aCloseDuringReconnectionEndsTheEvents() async throws {
        let first = StubTransport.WebSocketPeer()
        let second = StubTransport.WebSocketPeer()
        let handshakes = LockedToken("0")
        transport.onWebSocket("*") { _ in
            let index = Int(handshakes.value)!
            handshakes.value = String(index + 1)
            return .accept(index == 0 ? first : second)
        }
        let policy = WebSocket.Reconnection(initialDelay: .milliseconds(200))
        let socket = try await session().webSocket(
            ChatSocket(options: WebSocket.Options(pingInterval: nil, reconnection: policy))
        )
        let reader = Task {
            var events: [WebSocket.Event] = []
            for try await event in socket.events {
                events.append(event)
            }
            return events
        }
        first.drop()
        try await Task.sleep(for: .milliseconds(50))
        await socket.close(.normalClosure, reason: "leaving")
        let closure = WebSocket.Closure(code: .normalClosure, reason: "leaving")
        #expect(try await reader.value == [.closed(closure)])
        #expect(socket.closure == closure)
        #expect(handshakes.value == "1" || second.clientClosure == closure)
    }
}
