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

    private func head(_ status: Int, _ fields: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "https://files.test/a")!,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: fields
        )!
    }

    @Test func aGivenUpAttemptCanNeitherWriteNorStartAfterTheNextOneBegan() throws {
        let file = try DownloadFile(options: DownloadOptions(destination: .file(destination)))
        defer { try? FileManager.default.removeItem(at: destination) }
        let first = file.currentAttempt
        try file.start(with: head(200, ["ETag": "\"v1\"", "Accept-Ranges": "bytes"]), attempt: first)
        try file.write(Data("abc".utf8), attempt: first)
        file.pause()  // the first exchange timed out; it may still deliver for a moment

        let second = file.currentAttempt
        #expect(second != first)
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
        let file = try DownloadFile(options: DownloadOptions(destination: .file(destination)))
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
}
