import CoreAPI
import Foundation
import Testing

/// Performs one cached call through a ``HTTPCacheMiddleware/FileStore`` and prints the version it got. It runs only in
/// the child process that ``FileStoreRestartTests`` starts: the store's files outlive the process.
@Suite struct FileStoreRestartProbe {
    static let directoryVariable = "COREAPI_STORE_PROBE_DIRECTORY"
    static let nameVariable = "COREAPI_STORE_PROBE_NAME"
    static let urlVariable = "COREAPI_STORE_PROBE_URL"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[directoryVariable] != nil))
    func fetchThroughTheFileStore() async throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: try #require(environment[Self.directoryVariable]))
        let name = try #require(environment[Self.nameVariable])
        let baseURL = try #require(environment[Self.urlVariable])
        let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: directory))
        let session = try StressChild.transport().makeSession(
            hostProvider: DictionaryHostProvider(["fixture": baseURL]),
            middlewares: [cache]
        )
        ChildProbe.report(try await session.perform(GetCached(name: name, maxAge: 600)).version)
    }
}
