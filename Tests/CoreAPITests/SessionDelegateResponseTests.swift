import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport failure of `kind` with the `URLError` code `code`.
private func transport(_ kind: ApiError.TransportFailure.Kind, _ code: Int) -> ApiError {
    .transport(.init(kind: kind, code: code))
}

/// How the session delegate reads response heads and names the errors FoundationNetworking reports,
/// without a network.
@Suite(.timeLimit(.minutes(1)))
struct SessionDelegateResponseTests {
    static let url = URL(string: "http://127.0.0.1/x")!

    /// Errors as FoundationNetworking reports them (`NSURLErrorDomain`, libcurl's message), with whether
    /// the response head had arrived, and the error the transport names.
    @Test(arguments: [
        (-1, "transfer closed with 900 bytes remaining to read", true, transport(.connectionLost, -1)),
        (-1, "transfer closed with 900 bytes remaining to read", false, transport(.other, -1)),
        (-1, "transfer closed with outstanding read data remaining", true, transport(.connectionLost, -1)),
        (-1, "OpenSSL SSL_read: unexpected eof while reading, errno 0", true, transport(.connectionLost, -1)),
        (-1, "SSL certificate problem: self-signed certificate", false, transport(.tls, -1)),
        (-1005, "Recv failure: Connection reset by peer", true, transport(.connectionLost, -1005)),
        (-1005, "Recv failure: Connection reset by peer", false, transport(.connectionLost, -1005)),
        (-1, "Header without colon", false, transport(.badResponse, -1)),
        (-1, "Nul byte in header", false, transport(.badResponse, -1)),
        (-1, "Invalid Content-Length: value", false, transport(.badResponse, -1)),
        (-1002, "Unsupported HTTP version in response", false, transport(.badResponse, -1002)),
        (-1002, "Received HTTP/0.9 when not allowed", false, transport(.badResponse, -1002)),
        (-1, "Reject response due to more than 5 content encodings", false, transport(.badResponse, -1)),
        (-1, "Error while processing content unencoding: incorrect header check", true, transport(.badResponse, -1)),
        (-1, "Unrecognized or bad HTTP Content or Transfer-Encoding", true, transport(.badResponse, -1)),
        (-1001, "Timeout was reached", true, .timeout),
        (-999, "cancelled", true, .cancelled),
        (-1004, "Could not connect to server", false, transport(.cannotConnect, -1004)),
    ])
    func failuresAreNamedFromWhatTheTransportKnows(code: Int, message: String, afterHead: Bool, expected: ApiError) {
        let error = NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
        #expect(SessionDelegate.failure(for: error, afterHead: afterHead, url: Self.url) == expected)
    }

    /// `-1002` (unsupported URL) means an unreadable status line only for an `http` or `https` request.
    @Test func anUnsupportedURLIsABadResponseOnlyForHTTP() throws {
        let error = NSError(domain: NSURLErrorDomain, code: -1002, userInfo: [NSLocalizedDescriptionKey: "x"])
        let ftp = try #require(URL(string: "ftp://127.0.0.1/x"))
        #expect(SessionDelegate.failure(for: error, afterHead: false, url: ftp) == transport(.other, -1002))
        let https = try #require(URL(string: "https://127.0.0.1/x"))
        #expect(SessionDelegate.failure(for: error, afterHead: false, url: https) == transport(.badResponse, -1002))
    }
}
