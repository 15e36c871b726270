import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /me` as one user: the bearer token and the cookie of the call.
private struct GetMe: ApiMethod {
    typealias Response = Data
    @Excluded var token: String
    @Excluded var cookie: String?
    var hostProviderKey: String { "api" }
    var path: String { "/me" }
    var headers: Headers {
        var headers: Headers = ["Authorization": "Bearer \(token)"]
        if let cookie { headers["Cookie"] = "session=\(cookie)" }
        return headers
    }
}

/// The HTTP cache and credentials: no secret reaches a store's files, and one user's response never
/// answers another's request.
@Suite(.timeLimit(.minutes(1)))
struct HTTPCacheSecretsTests {
    let transport = StubTransport()

    init() {
        // The server answers with the user the token names, privately, varying on the token.
        transport.on("/me") { request in
            let user = request.headers["Authorization"]?.split(separator: "-").last.map(String.init) ?? "nobody"
            return .data(
                Data("user \(user)".utf8),
                headers: ["Cache-Control": "private, max-age=60", "Vary": "Authorization, Cookie"]
            )
        }
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("coreapi-secrets-\(UUID().uuidString)")
    }

    /// Every byte of every file under `directory`.
    static func contentsOfFiles(under directory: URL) throws -> [Data] {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects ?? []
        return try files.compactMap { $0 as? URL }.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.map { try Data(contentsOf: $0) }
    }

    /// A private response that varies on `Authorization` and `Cookie` is stored, and answers the same
    /// user again, yet neither the token nor the cookie is anywhere in the store's folder: not in a
    /// file's name, its key, its header fields or its `Vary` values.
    @Test func theTokenAndCookieTheResponseVariesOnAreNowhereInTheFiles() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: directory))
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        let me = GetMe(token: "SECRET-TOKEN-ada", cookie: "COOKIE-VALUE-ada")
        #expect(try await session.perform(me) == Data("user ada".utf8))
        #expect(try await session.perform(me) == Data("user ada".utf8))
        #expect(transport.requests.count == 1)  // the second call was answered from the file
        let files = try Self.contentsOfFiles(under: directory)
        #expect(!files.isEmpty)
        for secret in ["SECRET-TOKEN-ada", "COOKIE-VALUE-ada", "Bearer"] {
            let bytes = Data(secret.utf8)
            #expect(files.allSatisfy { $0.range(of: bytes) == nil }, "\(secret) is in an entry file")
        }
        // Names are hex digests, which may hold "ada" by chance: look for what no digest can hold.
        let names = FileManager.default.subpaths(atPath: directory.path) ?? []
        #expect(!names.contains { $0.contains("SECRET") || $0.contains("TOKEN") || $0.contains("COOKIE") })
    }

    /// A fresh response fetched with one user's token never answers a request with another token,
    /// whatever the response says about caching; each user gets their own from the server, then from
    /// the store.
    @Test(arguments: ["max-age=60", "public, max-age=60", "private, max-age=60"])
    func oneUsersResponseNeverAnswersAnother(cacheControl: String) async throws {
        transport.on("/me") { request in
            let user = request.headers["Authorization"]?.split(separator: "-").last.map(String.init) ?? "nobody"
            return .data(Data("user \(user)".utf8), headers: ["Cache-Control": cacheControl])
        }
        let cache = HTTPCacheMiddleware(store: HTTPCacheMiddleware.MemoryStore())
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        #expect(try await session.perform(GetMe(token: "T-ada")) == Data("user ada".utf8))
        #expect(try await session.perform(GetMe(token: "T-bob")) == Data("user bob".utf8))
        #expect(try await session.perform(GetMe(token: "T-ada")) == Data("user ada".utf8))
        #expect(try await session.perform(GetMe(token: "T-bob")) == Data("user bob".utf8))
        #expect(transport.requests.count == 2)
    }

    /// Entries classified by user in a file store: storing the second user's entry keeps the first's.
    @Test func classifiedUsersKeepTheirOwnEntries() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: directory)) { request in
            request.headers["Authorization"].map { String($0.suffix(3)) }
        }
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [cache])
        for token in ["T-ada", "T-bob", "T-ada", "T-bob"] {
            let user = String(token.dropFirst(2))
            #expect(try await session.perform(GetMe(token: token)) == Data("user \(user)".utf8))
        }
        #expect(transport.requests.count == 2)
    }
}
