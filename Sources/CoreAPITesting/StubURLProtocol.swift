import CoreAPI

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The `URLProtocol` behind ``StubServer``.
///
/// A session is routed to its server by a header that ``StubServer/makeConfiguration(base:)`` adds
/// to the configuration's `httpAdditionalHeaders` (`ApiSession` sends those with every request); the
/// header is removed before the request is recorded.
public final class StubURLProtocol: URLProtocol {
    static let routingHeader = "X-CoreAPI-Stub-Server"
    private static let servers = LockedValue([String: WeakServer]())

    private struct WeakServer {
        weak var server: StubServer?
    }

    private let lock = NSLock()
    private var isStopped = false

    static func register(_ server: StubServer) {
        servers.withLock { $0[server.id] = WeakServer(server: server) }
    }

    static func unregister(_ id: String) {
        servers.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Handles every request of a session configured with it, so a stub session never reaches the
    /// network; a request without a known server's routing header fails with `cannotConnectToHost`.
    override public class func canInit(with request: URLRequest) -> Bool {
        true
    }

    /// The request unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Answers from the stub server, after the reply's delay.
    override public func startLoading() {
        guard let id = request.value(forHTTPHeaderField: Self.routingHeader),
            let server = Self.servers.withLock({ $0[id]?.server }),
            let url = request.url
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        var headers = Headers()
        // A field of blank value is not sent (libcurl drops it); the transport sets one on Linux to
        // choose the framing of a body stream.
        for (name, value) in request.allHTTPHeaderFields ?? [:]
        where name.lowercased() != Self.routingHeader.lowercased() && !value.allSatisfy(\.isWhitespace) {
            headers.add(value, for: name)
        }
        let recorded = StubTransport.RecordedRequest(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            url: url,
            headers: Headers(headers.sorted { $0.name.lowercased() < $1.name.lowercased() }),
            body: request.httpBody ?? request.httpBodyStream.map(Self.contents)
        )
        let reply: CannedResponse
        do {
            reply = try server.respond(to: recorded)
        } catch {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        if reply.delay > .zero {
            let protocolInstance = Unchecked(value: self)
            let (seconds, attoseconds) = reply.delay.components
            let delay = DispatchTimeInterval.nanoseconds(
                Int(min(seconds, 1_000_000_000)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            )
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                protocolInstance.value.deliver(reply, for: url)
            }
        } else {
            deliver(reply, for: url)
        }
    }

    /// Everything `stream` holds: on Linux ``URLSessionTransport`` hands every body to `URLSession` as a
    /// stream, which reaches the protocol unopened.
    private static func contents(of stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        stream.open()
        defer { stream.close() }
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 {
            data.append(buffer, count: count)
        }
        return data
    }

    /// Stops a delayed reply from being delivered.
    override public func stopLoading() {
        lock.withLock { isStopped = true }
    }

    private func deliver(_ reply: CannedResponse, for url: URL) {
        guard !lock.withLock({ isStopped }) else { return }
        let parts: CannedResponse.Parts
        switch reply.make() {
        case .success(let made):
            parts = made
        case .failure(let error):
            // A `URLError` as URLSession reports it; an error no `URLError` stands for is handed through as
            // it is, and the transport keeps it.
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        var fields: [String: String] = [:]
        for field in parts.headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        guard
            let response = HTTPURLResponse(
                url: url,
                statusCode: parts.statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: fields
            )
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !parts.body.isEmpty {
            client?.urlProtocol(self, didLoad: parts.body)
        }
        client?.urlProtocolDidFinishLoading(self)
    }
}

/// Carries the protocol instance to the delayed delivery; URLProtocol allows `client` calls from any
/// thread, and `isStopped` is lock-guarded.
private struct Unchecked: @unchecked Sendable {  // see the comment above
    let value: StubURLProtocol
}
