import CoreAPI
import CoreAPITesting
import Foundation

/// A server in a closure for cassette tests: answers each request with what `reply` makes, through the
/// one response collector, handing a body read as it arrives to the body handler in the given pieces.
struct ClosureServer: Transport {
    struct Reply: Sendable {
        var status = 200
        var headers: Headers = ["Content-Type": "application/json"]
        var body = Data()
        /// The sizes of the pieces a streamed body arrives in; one piece when `nil`.
        var pieces: [Int]?
    }

    let reply: @Sendable (ApiRequest, Data) -> Reply

    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        var body = request.body.data ?? Data()
        if let stream = request.body.stream {
            for try await chunk in stream { body.append(chunk) }
        }
        let answer = reply(request, body)
        var collector = ResponseCollector(method: request.method, options: options, decodedCodings: ["identity"])
        let head = ResponseHead(status: HTTPStatus(answer.status), headers: answer.headers, url: request.url)
        switch try collector.receive(head) {
        case .stream:
            var offset = 0
            for size in answer.pieces ?? [answer.body.count] {
                try collector.take(answer.body.subdata(in: offset..<offset + size)).deliver()
                offset += size
            }
        case .collect, .skip:
            if collector.hasBody { try collector.take(answer.body).deliver() }
        }
        return try collector.finish()
    }
}

/// A method of the cassette tests: any verb, path, query and body, answered as raw bytes.
struct CassetteCall: ApiMethod {
    typealias Response = Data
    @Excluded var verb: HTTPMethod = .get
    @Excluded var route: String
    @Excluded var query: [URLQueryItem] = []
    @Excluded var payload: RequestBody?
    @Excluded var fields: Headers = Headers()

    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { verb }
    var headers: Headers { fields }
    var body: RequestBody? { payload }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: route, queryItems: query)
    }

    func encode(to encoder: any Encoder) throws {}
}

extension Data {
    /// The body as a JSON object.
    var echoedJSON: [String: Any] {
        (try? JSONSerialization.jsonObject(with: self)) as? [String: Any] ?? [:]
    }
}

/// Pieces a body handler received, from the transport's thread.
final class ReceivedPieces: @unchecked Sendable {  // every access to `stored` holds `lock`
    private let lock = NSLock()
    private var stored: [Data] = []

    func append(_ piece: Data) {
        lock.withLock { stored.append(piece) }
    }

    var pieces: [Data] {
        lock.withLock { stored }
    }
}
