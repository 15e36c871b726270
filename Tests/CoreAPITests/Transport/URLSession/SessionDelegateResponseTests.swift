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

    private func response(_ status: Int, _ fields: [String: String]) -> ResponseHead {
        ResponseHead(status: HTTPStatus(status), headers: Headers(fields), url: Self.url)
    }

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

    /// Heads as FoundationNetworking delivers them (repeated fields joined with ", "), and whether the
    /// transport refuses them before reading the body.
    @Test(arguments: [
        (200, ["Content-Length": "10"], "GET", false),
        (200, ["Content-Length": "10, 10"], "GET", false),
        (200, ["Content-Length": "10,010, 10"], "GET", false),
        (200, ["Content-Length": "10, 5"], "GET", true),
        (200, ["Content-Length": "5,10"], "GET", true),
        (200, ["Content-Length": "10, abc"], "GET", true),
        (200, ["Content-Length": "-1"], "GET", true),
        (200, ["Content-Length": "+10"], "GET", true),
        (200, ["Content-Encoding": "gzip"], "GET", false),
        (200, ["Content-Encoding": "GZip, deflate, br"], "GET", false),
        (200, ["Content-Encoding": "identity"], "GET", false),
        (200, ["Content-Encoding": "gzip,, gzip"], "GET", false),
        (200, ["Content-Encoding": "gzip, gzip, gzip, gzip, gzip"], "GET", false),
        (200, ["Content-Encoding": "gzip, gzip, gzip, gzip, gzip, gzip"], "GET", true),
        (200, ["Content-Encoding": "bogus"], "GET", true),
        (200, ["Content-Encoding": "gzip, compress"], "GET", true),
        (200, ["Content-Encoding": "bogus"], "HEAD", false),
        (204, ["Content-Encoding": "bogus"], "GET", false),
        (304, ["Content-Encoding": "bogus"], "GET", false),
        (200, ["Content-Length": "10, 5"], "HEAD", true),
    ])
    func headsAreCheckedBeforeTheirBody(status: Int, fields: [String: String], method: String, refused: Bool) {
        var collector = ResponseCollector(
            method: HTTPMethod(rawValue: method),
            options: TransportOptions(),
            decodedCodings: SessionDelegate.decodedContentCodings
        )
        var failure: ApiError?
        do throws(ApiError) {
            _ = try collector.receive(response(status, fields))
        } catch {
            failure = error
        }
        #expect(failure == (refused ? .transport(.init(kind: .badResponse)) : nil))
    }

    @Test(arguments: [
        ("10", Int64(10)), ("0", 0), ("10, 10", 10), ("99999999999999999999999", .max), ("abc", nil), ("", nil),
        ("007", 7), ("9223372036854775806", .max - 1), ("9223372036854775808", .max), ("1a", nil), ("-1", nil),
    ])
    func theDeclaredLengthIsReadFromContentLength(value: String, expected: Int64?) {
        #expect(HeadChecks(response(200, ["Content-Length": value])).declaredLength == expected)
    }

    /// Feeds `head` and then `chunks` to a delegate the way URLSession does, and returns how the task
    /// ended, or `nil` when it has not ended.
    private func feed(
        _ head: ResponseHead,
        _ chunks: [Data],
        options: TransportOptions = TransportOptions()
    ) -> (SessionDelegate.TaskOutcome?, Int) {
        let delegate = SessionDelegate()
        // A task that is never resumed: nothing is sent, and the delegate is fed by hand.
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: Self.url)
        let ended = LockedValue<SessionDelegate.TaskOutcome?>(nil)
        delegate.register(task, options: options) { outcome in ended.withLock { $0 = outcome } }
        delegate.urlSession(session, dataTask: task, didReceive: head.httpURLResponse) { _ in }
        for chunk in chunks {
            delegate.urlSession(session, dataTask: task, didReceive: chunk)
        }
        let count = delegate.taskCount
        if ended.current == nil {
            delegate.cancel(task)
        }
        return (ended.current, count)
    }

    /// A redirect's body is kept up to 64 KiB; the task ends as soon as more arrives, with the head and
    /// those bytes, whether the rest comes in one piece (FoundationNetworking) or in many.
    @Test(arguments: [[Data(count: 10 * 1024 * 1024)], Array(repeating: Data(count: 16 * 1024), count: 100)])
    func aRedirectKeepsTheStartOfItsBodyAndEnds(chunks: [Data]) throws {
        let head = response(302, ["Location": "/next", "Content-Length": "10485760"])
        let (outcome, running) = feed(head, chunks)
        let ended = try #require(outcome)
        #expect(running == 0)
        #expect(ended.error == nil)
        #expect(ended.response?.statusCode == 302)
        #expect(ended.data.count == 64 * 1024)
    }

    /// The size limit is not reached by a redirect body that is not read, and one smaller than 64 KiB
    /// is kept whole until the task ends.
    @Test func aRedirectBodyIsNotCountedAgainstTheSizeLimit() throws {
        let head = response(307, ["Location": "/next"])
        let options = TransportOptions(maximumResponseSize: 80 * 1024)
        let (outcome, _) = feed(head, [Data(count: 100 * 1024)], options: options)
        let ended = try #require(outcome)
        #expect(ended.error == nil)
        #expect(ended.data.count == 64 * 1024)
        let (small, running) = feed(head, [Data(count: 1000)])
        #expect(running == 1)
        #expect(small?.error == .cancelled)  // still running: ended by the test's cancel
    }

    /// A `3xx` without `Location`, or another status, is an answer: its body is read like any other.
    @Test(arguments: [(302, [:]), (200, ["Location": "/next"]), (300, ["Location": "/next"])])
    func onlyARedirectWithALocationIsCut(status: Int, fields: [String: String]) {
        let (outcome, running) = feed(response(status, fields), [Data(count: 100 * 1024)])
        #expect(running == 1)
        #expect(outcome?.error == .cancelled)
    }

    /// A head CoreAPI refuses ends the task at once with `badResponse`.
    @Test func aRefusedHeadEndsTheTaskAtOnce() throws {
        let (outcome, running) = feed(response(200, ["Content-Length": "10, 5"]), [Data(count: 5)])
        #expect(running == 0)
        #expect(try #require(outcome).error == .transport(.init(kind: .badResponse)))
    }
}
