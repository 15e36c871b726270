import CoreAPI
import Foundation
import Testing

/// A response stored by another process is served from the files without the network.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(2)))
    struct FileStoreRestartTests {
        @Test(arguments: TestTransport.engines)
        func aStoredResponseOutlivesTheProcess(transport: TestTransport) async throws {
            let server = try FixtureServer.shared()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            let name = "restart-\(UUID().uuidString.prefix(8))"
            let printed = try ChildProbe.run(
                suite: "FileStoreRestartProbe",
                environment: [
                    FileStoreRestartProbe.directoryVariable: directory.path,
                    FileStoreRestartProbe.nameVariable: name,
                    FileStoreRestartProbe.urlVariable: server.baseURL,
                ],
                over: transport
            )
            #expect(printed == [1])
            try server.bumpCached(name: name)
            let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: directory))
            let session = transport.makeSession(hostProvider: server.hosts, middlewares: [cache])
            #expect(try await session.perform(GetCached(name: name, maxAge: 600)).version == 1)
            #expect(try server.cacheStats(name: name).gets == 1)
        }
    }
}
