import CoreAPI
import Foundation

/// What the conformance server's echo route saw of a request, sent back as JSON: the request line,
/// every header field in order, and the body's length and SHA-256 digest.
struct EchoReport: Codable, Sendable {
    /// The port of the listener that answered: which origin the request reached.
    var port: Int
    var method: String
    var path: String
    /// The raw query, as sent; `nil` when the target had none.
    var query: String?
    /// Each field as `[name, value]`, in the order they arrived.
    var fields: [[String]]
    var bodyLength: Int
    /// The body's SHA-256 digest, in lowercase hexadecimal.
    var bodySHA256: String
    var framing: ReceivedRequest.Framing

    init(_ request: ReceivedRequest, port: Int) {
        self.port = port
        method = request.method
        path = request.path
        query = request.query
        fields = request.fields
        bodyLength = request.body.count
        bodySHA256 = Self.digest(of: request.body)
        framing = request.framing
    }

    /// The values of every field named `name`, case-insensitively, in order.
    func values(of name: String) -> [String] {
        fields.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] }
    }

    /// The SHA-256 digest of `bytes` in lowercase hexadecimal.
    static func digest(of bytes: some Collection<UInt8>) -> String {
        SHA256.digest(of: bytes).map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        .joined()
    }
}
