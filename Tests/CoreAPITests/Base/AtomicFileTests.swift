import Foundation
import Testing

@testable import CoreAPI

/// The whole-file replacement under the file store: new bytes replace old ones whole, no temporary
/// file is left behind, and a failure leaves the old file alone and names the call that failed.
struct AtomicFileTests {
    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coreapi-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func replacesTheWholeFileAndLeavesNoTemporaryFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("entry")
        try AtomicFile.replace(file, with: Data(repeating: 0x61, count: 100_000))
        #expect(try Data(contentsOf: file) == Data(repeating: 0x61, count: 100_000))
        try AtomicFile.replace(file, with: Data("short".utf8))
        #expect(try Data(contentsOf: file) == Data("short".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["entry"])
    }

    @Test func aMissingFolderIsATypedFailureThatLeavesNothing() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("missing").appendingPathComponent("entry")
        #expect(throws: AtomicFile.WriteError(call: "open", code: ENOENT)) {
            try AtomicFile.replace(file, with: Data("x".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aFailedRenameLeavesTheOldFileAndNoTemporaryFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory in the target's place: the rename fails (EISDIR), after the bytes were written.
        let target = directory.appendingPathComponent("taken")
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("inside"),
            withIntermediateDirectories: true
        )
        #expect(throws: AtomicFile.WriteError(call: "rename", code: EISDIR)) {
            try AtomicFile.replace(target, with: Data("x".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken"])
    }
}
