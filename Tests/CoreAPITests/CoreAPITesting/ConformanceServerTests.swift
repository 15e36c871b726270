import Foundation
import Testing

@testable import CoreAPITesting

/// The conformance kit's loopback server: two origins on ports the system picked, real HTTP/1.1 on the
/// wire, and a stop that leaves no thread, connection or listener behind, even while an exchange stalls.
@Suite(.timeLimit(.minutes(1)))
struct ConformanceServerTests {
    /// Sends `request` on a new connection and reads until the server closes it or `expected` bytes came.
    func exchange(_ request: String, port: Int, expected: Int = .max) throws -> String {
        let client = try #require(LoopbackSocket.connect(port: port))
        defer { client.close() }
        #expect(client.send(Array(request.utf8)))
        var received: [UInt8] = []
        while received.count < expected {
            let bytes = client.receive()
            if bytes.isEmpty { break }
            received += bytes
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func twoOriginsEchoARequestAndStopLeavesNothing() throws {
        let server = try ConformanceServer()
        #expect(server.port > 0 && server.otherPort > 0 && server.port != server.otherPort)
        let request =
            "POST /echo/x?q=%20 HTTP/1.1\r\nHost: a\r\nX-A: 1\r\nX-A: 2\r\nContent-Length: 3\r\n"
            + "Connection: close\r\n\r\nabc"
        for port in [server.port, server.otherPort] {
            let response = try exchange(request, port: port)
            let body = try #require(response.components(separatedBy: "\r\n\r\n").last)
            let report = try JSONDecoder().decode(EchoReport.self, from: Data(body.utf8))
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(report.port == port)
            #expect(report.method == "POST" && report.path == "/echo/x" && report.query == "q=%20")
            #expect(report.values(of: "x-a") == ["1", "2"])
            #expect(report.bodyLength == 3 && report.bodySHA256 == EchoReport.digest(of: Array("abc".utf8)))
        }
        server.stop()
        #expect(server.isIdle)
        #expect(LoopbackSocket.connect(port: server.port) == nil)
        #expect(LoopbackSocket.connect(port: server.otherPort) == nil)
    }

    @Test func aChunkedRequestBodyIsReadAndAChunkedResponseIsFramed() throws {
        let server = try ConformanceServer()
        defer { server.stop() }
        let request =
            "PUT /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n"
        let body = try #require(try exchange(request, port: server.port).components(separatedBy: "\r\n\r\n").last)
        let report = try JSONDecoder().decode(EchoReport.self, from: Data(body.utf8))
        #expect(report.framing == .chunked)
        #expect(report.bodySHA256 == EchoReport.digest(of: Array("abcde".utf8)))
        let chunked = try exchange(
            "GET /chunked?pieces=2&size=3 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            port: server.port
        )
        let pattern = ConformanceServer.pattern(count: 6, seed: 0)
        let expected =
            "3\r\n" + String(decoding: pattern[0..<3], as: UTF8.self) + "\r\n3\r\n"
            + String(decoding: pattern[3..<6], as: UTF8.self) + "\r\n0\r\n\r\n"
        #expect(chunked.hasSuffix("Transfer-Encoding: chunked\r\n\r\n" + expected))
    }

    /// A stop while a client holds a stalled exchange open ends it at once, not after the stall's 30 s.
    @Test func stopEndsAStalledExchange() async throws {
        let server = try ConformanceServer()
        let client = try #require(LoopbackSocket.connect(port: server.port))
        defer { client.close() }
        #expect(client.send(Array("GET /stall HTTP/1.1\r\nHost: a\r\n\r\n".utf8)))
        try await waitUntil { server.hasReceived("/stall") }
        let start = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - start < .seconds(ConformanceServer.stallSeconds))
        #expect(server.isIdle)
        #expect(client.receive().isEmpty)
    }
}
