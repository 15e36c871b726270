import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// A body FoundationNetworking asks for again that can no longer be given whole: the call fails typed
    /// at once, and nothing of the body goes out from its middle.
    ///
    /// When libcurl sends a request again on a new connection, the transport answers the engine's rewind
    /// with a new stream of the whole body (`RewindableBody`). A file that changed since the request was
    /// made cannot be that body, and an engine given no stream goes on from where it stopped: the
    /// transport gives it an empty stream and ends the exchange with `connectionLost`.
    @Suite(.timeLimit(.minutes(1)))
    struct UnrewindableBodyTests {
        @Test func aFileThatChangedBeforeTheEngineSendsItAgainFailsTyped() async throws {
            let server = try ResetFixtureServer()
            defer { server.stop() }
            let scratch = try ScratchDirectory()
            defer { scratch.remove() }
            let file = try scratch.makeFile(named: "body.bin", size: 1_000_003)
            let session = ApiSession(hostProvider: server.hosts)
            _ = try await session.perform(Warm())
            let name = uniqueName("changed")
            let changed = LockedList<Int64>()
            let started = ContinuousClock.now

            // The server closes the connection 64 KiB in and reads the rest, so libcurl sends the whole
            // body, then finds the connection closed and asks for the body again: the file has grown by
            // then, appended to as the first bytes were read.
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    CutUpload(payload: .file(file), name: name, how: "close"),
                    progress: { progress in
                        guard progress.direction == .upload, changed.values.isEmpty else { return }
                        changed.append(progress.completedBytes)
                        if let handle = try? FileHandle(forWritingTo: file) {
                            _ = try? handle.seekToEnd()
                            try? handle.write(contentsOf: Data("more".utf8))
                            try? handle.close()
                        }
                    }
                )
            }

            let took = ContinuousClock.now - started
            let log = try server.log(name: name)
            #expect(!changed.values.isEmpty)
            #expect(error == .transport(.init(kind: .connectionLost, code: URLError.networkConnectionLost.rawValue)))
            // Ended before the server stops waiting for a body that does not come (30 s).
            #expect(took < .seconds(25), "\(took), the server saw \(log)")
            #expect(log.first?.outcome == "closed", "the server saw \(log)")
            // The request sent again, if the server saw it before the cancel, carried no byte of the body.
            #expect(log.dropFirst().allSatisfy { $0.outcome == "partial" && $0.received == 0 }, "the server saw \(log)")
        }
    }
#endif
