import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's file refuses what an exchange the session gave up still delivers: after a timeout the
/// next exchange resumes with a range request, and the old one's late pieces or head must not land in
/// the new part of the file or spoil its range check.
@Suite struct DownloadFileTests {
    let destination = FileManager.default.temporaryDirectory
        .appendingPathComponent("DownloadFileTests-\(UUID().uuidString).bin")

    private func head(_ status: Int, _ fields: [String: String]) -> ResponseHead {
        ResponseHead(status: HTTPStatus(status), headers: Headers(fields), url: URL(string: "https://files.test/a")!)
    }

    @Test func aGivenUpAttemptCanNeitherWriteNorStartAfterTheNextOneBegan() throws {
        let file = try DownloadFile(options: DownloadedFile.Options(destination: .file(destination)))
        defer { try? FileManager.default.removeItem(at: destination) }
        let first = file.currentAttempt
        try file.start(with: head(200, ["ETag": "\"v1\"", "Accept-Ranges": "bytes"]), attempt: first)
        try file.write(Data("abc".utf8), attempt: first)
        file.pause()  // the first exchange timed out; it may still deliver for a moment

        let second = file.currentAttempt
        #expect(second != first)
        _ = file.requestHeaders  // the resumed request asks for the rest
        #expect(throws: ApiError.cancelled) { try file.write(Data("zz".utf8), attempt: first) }
        try file.start(with: head(206, ["ETag": "\"v1\"", "Content-Range": "bytes 3-5/6"]), attempt: second)
        #expect(throws: ApiError.cancelled) { try file.write(Data("zz".utf8), attempt: first) }
        // A late head of the first exchange is refused without marking the part on disk as mismatched.
        #expect(throws: ApiError.cancelled) {
            try file.start(with: self.head(206, ["ETag": "\"v1\"", "Content-Range": "bytes 0-5/6"]), attempt: first)
        }
        #expect(!file.takeMismatch())
        try file.write(Data("def".utf8), attempt: second)

        #expect(try file.finish() == 6)
        #expect(try Data(contentsOf: destination) == Data("abcdef".utf8))
    }

    @Test func aRestartMovesOnToANewAttemptToo() throws {
        let file = try DownloadFile(options: DownloadedFile.Options(destination: .file(destination)))
        defer { try? FileManager.default.removeItem(at: destination) }
        let first = file.currentAttempt
        try file.start(with: head(200, [:]), attempt: first)
        try file.write(Data("old".utf8), attempt: first)
        file.restart()

        let second = file.currentAttempt
        try file.start(with: head(200, [:]), attempt: second)
        #expect(throws: ApiError.cancelled) { try file.write(Data("old".utf8), attempt: first) }
        try file.write(Data("new".utf8), attempt: second)
        #expect(try file.finish() == 3)
        #expect(try Data(contentsOf: destination) == Data("new".utf8))
    }

    /// RFC 9110 §13.1.5: `If-Range` names a strong entity tag, else a `Last-Modified` at least a second
    /// before the response's `Date`, else nothing (and the part is not resumed).
    @Test(
        arguments: [
            ("\"v1\"", nil, nil, "\"v1\""),
            ("W/\"v1\"", nil, nil, nil),
            // An entity tag, even a weak one, rules the date out.
            ("W/\"v1\"", "Tue, 24 Nov 2026 05:00:00 GMT", "Thu, 26 Nov 2026 17:00:00 GMT", nil),
            ("\"v1\"", "Tue, 24 Nov 2026 05:00:00 GMT", "Thu, 26 Nov 2026 17:00:00 GMT", "\"v1\""),
            (nil, "Tue, 24 Nov 2026 05:00:00 GMT", "Thu, 26 Nov 2026 17:00:00 GMT", "Tue, 24 Nov 2026 05:00:00 GMT"),
            (nil, "Thu, 26 Nov 2026 17:00:00 GMT", "Thu, 26 Nov 2026 17:00:01 GMT", "Thu, 26 Nov 2026 17:00:00 GMT"),
            (nil, "Thu, 26 Nov 2026 17:00:00 GMT", "Thu, 26 Nov 2026 17:00:00 GMT", nil),  // the same second
            (nil, "Thu, 26 Nov 2026 17:00:05 GMT", "Thu, 26 Nov 2026 17:00:00 GMT", nil),  // after the Date
            (nil, "Tue, 24 Nov 2026 05:00:00 GMT", nil, nil),  // no Date
            (nil, "yesterday", "Thu, 26 Nov 2026 17:00:00 GMT", nil),
            (nil, "Tue, 24 Nov 2026 05:00:00 GMT", "now", nil),
            (nil, "Tuesday, 24-Nov-26 05:00:00 GMT", "Thu Nov 26 17:00:00 2026", "Tuesday, 24-Nov-26 05:00:00 GMT"),
            ("", nil, nil, nil),
            (nil, nil, "Thu, 26 Nov 2026 17:00:00 GMT", nil),
        ] as [(String?, String?, String?, String?)]
    )
    func ifRangeNamesOnlyAStrongValidator(etag: String?, lastModified: String?, date: String?, expected: String?) {
        #expect(DownloadFile.ifRangeValidator(etag: etag, lastModified: lastModified, date: date) == expected)
    }

    /// Every request asks for the identity coding; a part that arrived coded asks for no range and
    /// cannot resume.
    @Test func aCodedPartIsNotResumable() throws {
        let file = try DownloadFile(options: DownloadedFile.Options(destination: .file(destination)))
        defer { try? FileManager.default.removeItem(at: destination) }
        #expect(file.requestHeaders.map(\.name) == ["Accept-Encoding"])
        #expect(file.requestHeaders.first?.value == "identity")
        let attempt = file.currentAttempt
        try file.start(
            with: head(200, ["ETag": "\"v1\"", "Accept-Ranges": "bytes", "Content-Encoding": "gzip"]),
            attempt: attempt
        )
        try file.write(Data("abc".utf8), attempt: attempt)
        #expect(!file.canResume)
        #expect(file.hasStarted)
        #expect(file.requestHeaders.map(\.name) == ["Accept-Encoding"])
        file.abandon()
    }

    /// A download that may keep its part keeps an identity-coded one with its validator, and removes a
    /// coded one: its bytes are not those a range would count, so a later download starts over.
    @Test(arguments: [(nil, true), ("identity", true), ("gzip", false), ("br", false)] as [(String?, Bool)])
    func onlyAnIdentityCodedPartIsKept(coding: String?, kept: Bool) throws {
        let partial = URL(fileURLWithPath: destination.path + ".partial")
        let validator = URL(fileURLWithPath: destination.path + ".partial-validator")
        defer {
            for url in [destination, partial, validator] { try? FileManager.default.removeItem(at: url) }
        }
        let file = try DownloadFile(
            options: DownloadedFile.Options(destination: .file(destination), keepsPartialFile: true)
        )
        var fields = ["ETag": "\"v1\"", "Accept-Ranges": "bytes", "Content-Length": "100"]
        fields["Content-Encoding"] = coding
        let attempt = file.currentAttempt
        try file.start(with: head(200, fields), attempt: attempt)
        try file.write(Data("abc".utf8), attempt: attempt)
        file.abandon()
        #expect(FileManager.default.fileExists(atPath: partial.path) == kept)
        #expect(FileManager.default.fileExists(atPath: validator.path) == kept)

        // The next download resumes the kept part and starts the removed one over.
        let next = try DownloadFile(
            options: DownloadedFile.Options(destination: .file(destination), keepsPartialFile: true)
        )
        let range = next.requestHeaders.first { $0.name == "Range" }?.value
        #expect(range == (kept ? "bytes=3-" : nil))
        next.abandon()
    }

    /// A `206` that starts elsewhere than the part ends, or that is coded, is refused as a mismatch.
    @Test(arguments: [
        ["ETag": "\"v1\"", "Content-Range": "bytes 4-5/6"],
        ["ETag": "\"v1\"", "Content-Range": "bytes 3-5/6", "Content-Encoding": "gzip"],
        ["ETag": "\"v2\"", "Content-Range": "bytes 3-5/6"],
        ["ETag": "\"v1\""],
    ])
    func aRangeThatDoesNotContinueThePartIsAMismatch(fields: [String: String]) throws {
        let file = try DownloadFile(options: DownloadedFile.Options(destination: .file(destination)))
        defer { file.abandon() }
        let first = file.currentAttempt
        try file.start(with: head(200, ["ETag": "\"v1\"", "Accept-Ranges": "bytes"]), attempt: first)
        try file.write(Data("abc".utf8), attempt: first)
        file.pause()
        #expect(file.requestHeaders.map(\.value) == ["identity", "bytes=3-", "\"v1\""])
        #expect(throws: ApiError.transport(.init(kind: .badResponse))) {
            try file.start(with: self.head(206, fields), attempt: file.currentAttempt)
        }
        #expect(file.takeMismatch())
    }

    /// A `416` to a range request completes the download when its `Content-Range: bytes */N` is the
    /// part's size, and is a mismatch otherwise; to a request without a range it is a status like any other.
    @Test(
        arguments: [("bytes */3", true), ("bytes */2", false), ("bytes */4", false), (nil, false)] as [(String?, Bool)]
    )
    func a416CompletesOnlyAPartOfTheWholeSize(contentRange: String?, completes: Bool) throws {
        let file = try DownloadFile(options: DownloadedFile.Options(destination: .file(destination)))
        defer { try? FileManager.default.removeItem(at: destination) }
        let refusal = head(416, contentRange.map { ["Content-Range": $0] } ?? [:])
        #expect(try !file.completes(with: refusal, attempt: file.currentAttempt))  // no range asked yet
        let first = file.currentAttempt
        try file.start(with: head(200, ["ETag": "\"v1\"", "Accept-Ranges": "bytes"]), attempt: first)
        try file.write(Data("abc".utf8), attempt: first)
        file.pause()
        _ = file.requestHeaders
        let second = file.currentAttempt
        if completes {
            #expect(try file.completes(with: refusal, attempt: second))
            try file.write(Data("<html>".utf8), attempt: second)  // the 416's own body is not written
            #expect(try file.finish() == 3)
            #expect(try Data(contentsOf: destination) == Data("abc".utf8))
        } else {
            #expect(throws: ApiError.transport(.init(kind: .badResponse))) {
                try file.completes(with: refusal, attempt: second)
            }
            #expect(file.takeMismatch())
            file.abandon()
        }
    }
}
