import CoreAPI
import CoreAPIJSON
import Foundation

// What the samples in `Samples/` take as given without showing it, and what the tests add to them. Nothing here
// appears in a document. This file does not import Testing, whose own `Attachment` type would make the name
// ambiguous.

/// README.md declares the same `User` and `GetUser` as GettingStarted.md, so its samples are compiled inside this
/// namespace, beside the articles' ones in the same module.
enum ReadmeSamples {}

/// SendingFormsAndFiles.md's upload with an attachment in memory, for the test that checks the article's claims.
func makeUploadDocumentSample() -> UploadDocument {
    UploadDocument(
        title: "Q3",
        tags: ["finance", "2026"],
        file: Attachment(data: Data("%PDF-1.7".utf8), filename: "q3-report.pdf")
    )
}

// MARK: - What the samples of doc comments take as given

/// The body of a function that evaluates the expressions of a sample that shows their values in comments, as a
/// playground does, where a plain function body would warn that the values are unused.
@resultBuilder enum Playground {
    static func buildExpression<Value>(_ value: Value) {}
    static func buildBlock(_ steps: Void...) {}
}

/// A progress bar of the app.
@MainActor final class ProgressBar {
    var value = 0.0
}

/// The app's network activity indicator.
@MainActor final class Spinner {
    var isVisible = false
}

/// Uploads a photo from a file.
struct UploadPhoto: ApiMethod {
    typealias Response = Data
    @Excluded var file: URL
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var path: String { "/photos" }
    var body: RequestBody? { .file(file, contentType: "image/jpeg") }
}

/// Every order, one JSON object a line.
struct ExportOrders: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/orders/export" }
}

/// A page of items with the response's header fields and timing.
struct ListItems: ApiMethod {
    typealias Response = WithMetadata<Data>
    var hostProviderKey: String { "api" }
    var path: String { "/items" }
}

/// A chat room's socket, `general` unless told.
struct ChatSocket: WebSocket.Method {
    @Excluded var room = "general"
    var hostProviderKey: String { "chat" }
    var path: String { "/rooms/\(room)/socket" }
}

/// A chat message the app sends.
struct Outgoing: Encodable {
    let text: String
}

/// A chat message the app receives.
struct Incoming: Decodable {
    let text: String
}

/// Who is in a chat room.
struct Presence: Decodable, Sendable {
    let online: [String]
}

/// The lines of a chat room the app shows.
actor ChatLog {
    private(set) var lines: [ChatLine] = []
    func append(_ line: ChatLine) { lines.append(line) }
}

/// The people of a chat room the app shows.
actor Roster {
    private(set) var online: [String] = []
    func update(_ presence: Presence) { online = presence.online }
}

/// A user's profile in the current format.
struct Profile: JSONApiResponse {
    let name: String

    init(_ legacy: LegacyProfile) {
        name = legacy.fullName
    }
}

/// A user's profile in the format older servers send.
struct LegacyProfile: JSONApiResponse {
    let fullName: String
}

/// A post of a feed.
struct Post: Decodable, Sendable {
    let title: String
}

/// The body of a `409` from the shop: what conflicts with the request.
struct Conflict: Decodable, Sendable {
    let sku: String
}

extension ShopError {
    /// There is no such item.
    static let noSuchItem = ShopError(status: 404, code: "no-such-item")
    /// A failure the shop did not explain.
    static let unknown = ShopError(status: 0, code: "unknown")

    /// The request conflicts with the state of an item.
    static func conflict(_ conflict: Conflict) -> ShopError {
        ShopError(status: 409, code: "conflict: \(conflict.sku)")
    }
}

/// The response types of the shop's methods.
protocol ShopResponse: JSONApiResponse {}

/// A new pair of tokens.
struct Tokens: Sendable {
    let accessToken: String
    let refreshToken: String
}

/// Where the app gets new tokens.
struct SignInService: Sendable {
    func refresh(using refreshToken: String) async throws -> Tokens {
        Tokens(accessToken: "new-access", refreshToken: refreshToken)
    }
}

/// The signed-in user's account.
struct Account: Sendable {
    func logOut() async {}
    func refreshToken() async throws -> String { "new-access" }
}

/// Where the app keeps its access token.
struct TokenStore: Sendable {
    func accessToken() async throws -> String? { "access" }
}

/// The app's keychain.
struct Keychain: Sendable {
    func cacheKey() throws -> [UInt8] { Array(repeating: 7, count: 32) }
}

/// The app's logger.
struct AppLogger: Sendable {
    enum Level { case info, error }
    func log(level: Level, _ message: String) {}
    func info(_ message: String) {}
}

/// A transport's engine, which sends requests and stops when told.
struct Engine: Sendable {
    func stop(_ reason: ApiError) {}
    func send(_ request: ApiRequest, onProgress: @escaping @Sendable () -> Void) async throws -> RawResponse {
        throw ApiError.cancelled
    }
}

/// The transport of "Testing your transport" in WritingATransport.md: a third party's own, here one
/// that hands every exchange to the shared URLSession transport, so that the sample's test passes.
struct MyEngineTransport: Transport {
    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
        try await TestTransport.sharedURLSessionTransport.send(request, options: options)
    }
}

func show(_ orders: WithMetadata<[Order]>, age: Duration) {}
func show(_ user: User, at index: Int) {}
func show(_ profile: Profile) {}
func show(_ post: Post) {}
func showOffline(_ error: ApiError) {}
func showPDF(_ data: Data) {}
func showEmptyState() {}
func scheduleRetry() {}
func report(slow timing: ResponseTiming) {}
func report(_ dropped: [LossyArrayObserver.DroppedElement]) {}
func process(_ order: Order) {}
func signOut() async {}
func logOut() async {}
