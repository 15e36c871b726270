import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A multipart body with one text field, written to a temporary file whatever its size.
private struct Note: Encodable, Sendable {
    let note: String
}

/// Temporary files left by a process that died (multipart bodies, partial downloads) are removed by a
/// later one.
@Suite struct TemporaryFileNameTests {
    /// No process has this ID: far above any system's largest.
    static let endedProcess: Int32 = 2_000_000_001

    /// A new, empty folder.
    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CoreAPITemporaryFileNameTests-\(UUID().uuidString)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes a file named `name` in `folder`, last changed `age` seconds ago.
    @discardableResult
    private func file(_ name: String, in folder: URL, age: TimeInterval = 0) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(repeating: 0x2A, count: 1024).write(to: url)
        if age > 0 {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-age)],
                ofItemAtPath: url.path
            )
        }
        return url
    }

    private func names(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    private func multipartName(process: Int32) -> String {
        "CoreAPI-multipart-\(process)-\(UUID().uuidString).tmp"
    }

    @Test func theFirstTemporaryFileOfAProcessRemovesTheFilesOfProcessesThatDied() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let day = TemporaryFileName.staleAge
        // Removed: its process has ended; not changed for a day (a running process, an earlier version).
        let orphaned = multipartName(process: Self.endedProcess)
        let staleOfRunning = multipartName(process: 1)
        let staleUnnamed = "CoreAPI-multipart-\(UUID().uuidString).tmp"
        // Kept: this process's own, a running process's recent one, a recent one of an earlier version,
        // and other names.
        let own = multipartName(process: getpid())
        let running = multipartName(process: 1)
        let recentUnnamed = "CoreAPI-multipart-\(UUID().uuidString).tmp"
        let others = [
            "CoreAPI-multipart-\(Self.endedProcess).tmp", "report-\(Self.endedProcess).tmp", "CoreAPI-x.download",
        ]
        try file(orphaned, in: folder)
        try file(staleOfRunning, in: folder, age: day + 3600)
        try file(staleUnnamed, in: folder, age: day + 3600)
        for name in [own, running, recentUnnamed] + others {
            try file(name, in: folder, age: day - 3600)
        }

        let encoder = MultipartFormDataEncoder(streamingThreshold: 0, temporaryDirectory: folder)
        let request = ApiRequest(url: try #require(URL(string: "https://api.test/notes")))
        var post = request
        post.method = HTTPMethod(rawValue: "POST")
        let encoded = try encoder.encodeRequest(Note(note: "hello"), in: post)
        let written = try #require(encoded.body.file)
        defer { encoded.discardTemporaryFile() }

        #expect(TemporaryFileName.multipartBody.processID(inLeftoverName: written.url.lastPathComponent) == getpid())
        #expect(try names(in: folder) == Set([own, running, recentUnnamed, written.url.lastPathComponent] + others))

        // Once per folder: a file left afterwards waits for the next process.
        let later = multipartName(process: Self.endedProcess)
        try file(later, in: folder)
        let second = try encoder.encodeRequest(Note(note: "again"), in: post)
        second.discardTemporaryFile()
        #expect(try names(in: folder).contains(later))
    }

    @Test func filesOfOtherKindsAreLeftAlone() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = try file("target.bin", in: folder)
        // A symbolic link and a folder with the name of an orphaned body file.
        let link = folder.appendingPathComponent(multipartName(process: Self.endedProcess))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let directory = folder.appendingPathComponent(multipartName(process: Self.endedProcess))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)

        #expect(TemporaryFileName.multipartBody.sweep(folder, isRunning: { _ in false }).isEmpty)
        #expect(try names(in: folder).count == 3)
    }

    /// A download to a temporary file is named after its process; a sweep removes the partial files of
    /// processes that ended, never a complete download (the caller's) nor a running process's part.
    @Test func partialDownloadsOfProcessesThatDiedAreRemovedAndCompleteOnesKept() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ended = "CoreAPI-download-\(Self.endedProcess)-\(UUID().uuidString).download"
        let running = "CoreAPI-download-1-\(UUID().uuidString).download"
        try file(ended + ".partial", in: folder)
        try file(ended, in: folder)
        try file(running + ".partial", in: folder)
        try file("CoreAPI-multipart-\(Self.endedProcess)-\(UUID().uuidString).tmp", in: folder)

        let removed = TemporaryFileName.download.sweep(folder, isRunning: { $0 == 1 })
        #expect(removed.map(\.lastPathComponent) == [ended + ".partial"])
        #expect(try names(in: folder).count == 3)

        let file = try DownloadFile(options: DownloadedFile.Options())
        defer { file.abandon() }
        let name = file.destination.lastPathComponent
        #expect(TemporaryFileName.download.processID(inLeftoverName: name + ".partial") == getpid())
    }

    @Test(arguments: [
        ("CoreAPI-multipart-4242-6F9619FF-8B86-D011-B42D-00C04FC964FF.tmp", Int32?(4242)),
        ("CoreAPI-multipart-6F9619FF-8B86-D011-B42D-00C04FC964FF.tmp", nil),
        ("CoreAPI-multipart-12345678-8B86-D011-B42D-00C04FC964FF.tmp", nil),
        ("CoreAPI-multipart-0-6F9619FF-8B86-D011-B42D-00C04FC964FF.tmp", nil),
        ("CoreAPI-multipart--1-6F9619FF-8B86-D011-B42D-00C04FC964FF.tmp", nil),
        ("CoreAPI-multipart-4242-not-a-uuid-at-all.tmp", nil),
        ("CoreAPI-multipart-4242-6F9619FF-8B86-D011-B42D-00C04FC964FF.bin", nil),
        ("CoreAPI-multipart-٤٢-6F9619FF-8B86-D011-B42D-00C04FC964FF.tmp", nil),
    ])
    func processIDsAreReadOnlyFromNamesOfTheCurrentForm(name: String, process: Int32?) {
        #expect(TemporaryFileName.multipartBody.processID(inLeftoverName: name) == process)
    }
}
