import CoreAPITesting
import Foundation
import Testing

// `@testable` for the transport's delegate and the session's call registry, whose tables are checked.
@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nothing CoreAPI keeps for a call outlives it: after calls that succeed, fail, time out, are cancelled
/// at random moments or upload from a temporary file, the transport's per-task tables, the session's
/// call registry, the process's table of temporary body files and the URLSession's own list of tasks
/// are all empty. A table that kept an entry per call would grow for the life of the process.
@Suite(.timeLimit(.minutes(1)))
struct PerTaskTablesTests {
    private struct Fields: Encodable, Sendable {
        let note: String
        let blob: Data
    }

    @Test func noTableKeepsAnEntryOfACallThatEnded() async throws {
        let server = try FixtureServer.shared()
        let session = ApiSession(hostProvider: server.hosts)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CoreAPIPerTaskTables-\(UUID().uuidString)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = LockedList<URL>()
        let encoder = MultipartFormDataEncoder(streamingThreshold: 0, temporaryDirectory: folder)
        let upload = MultipartUpload<Fields, UploadReceipt>(
            path: "/upload",
            fields: Fields(note: "n", blob: Data(repeating: 7, count: 64 * 1024)),
            encoder: encoder
        )

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<120 {
                group.addTask {
                    switch index % 6 {
                    case 0: _ = try? await session.perform(RawGet(path: "/fast"))
                    case 1: _ = try? await session.perform(StatusCall(code: 500))
                    case 2: _ = try? await session.perform(DelayCall(milliseconds: 2000, timeout: .seconds(0.1)))
                    case 3: _ = try? await session.perform(upload)
                    default:
                        // Cancelled before, while or after its task is made, or during the exchange.
                        let call = Task { _ = try? await session.perform(DelayCall(milliseconds: 50)) }
                        try? await Task.sleep(for: .milliseconds(Int.random(in: 0..<60)))
                        call.cancel()
                        await call.value
                    }
                }
            }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            uploads.append(folder.appendingPathComponent(name))
        }

        let delegate = session.delegate
        // FoundationNetworking reports a cancelled task's end a moment after the call ended.
        try await waitUntil(timeout: .seconds(20)) {
            let counts = delegate.tableCounts
            return counts.tasks == 0 && counts.waiting == 0 && counts.retired == 0
        }
        let counts = delegate.tableCounts
        #expect(counts.tasks == 0 && counts.waiting == 0 && counts.retired == 0, "\(counts)")
        #expect(session.calls.count() == 0)
        let engineTasks = await withCheckedContinuation { continuation in
            session.urlSession?.getAllTasks { continuation.resume(returning: $0.count) }
        }
        #expect(engineTasks == 0, "the URLSession still lists \(engineTasks) tasks")
        #expect(uploads.values.isEmpty, "temporary body files left: \(uploads.values.map(\.lastPathComponent))")
        session.invalidate()
    }
}
