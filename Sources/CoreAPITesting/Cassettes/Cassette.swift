public import CoreAPI
public import Foundation

/// A recorded set of exchanges in a HAR file, replayed in tests, recorded or checked against the live API
/// as the `COREAPI_CASSETTES` environment variable says.
///
/// A test makes its session over ``makeTransport(live:)`` and calls ``finish()`` at its end:
///
/// | mode | the transport | ``finish()`` |
/// |---|---|---|
/// | ``Mode/replay`` (the default) | a ``Cassette/Player`` of the file; no network | fails when an entry was not used |
/// | ``Mode/record`` | replays an existing file; records one that is missing | writes a new recording |
/// | ``Mode/rerecord`` | a ``Cassette/Recorder`` over `live` | writes the recording |
/// | ``Mode/verify`` | a ``Cassette/Recorder`` over `live`; the file is kept | reports ``Cassette/Drift`` |
///
/// ```swift
/// @Test func replaysTheUserCassette() async throws {
///     let cassette = Cassette(named: "fetchesAUser", in: cassettesFolder)
///     let transport = try cassette.makeTransport(live: URLSessionTransport())
///     let hosts = DictionaryHostProvider(["api": "https://api.example.com"])
///     let session = ApiSession(hostProvider: hosts, transport: transport)
///     let user = try await session.perform(GetUser(id: 42))
///     #expect(user.name == "Ada")
///     try cassette.finish()
/// }
/// ```
public final class Cassette: Sendable {
    /// What a cassette does with its file.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Answer from the file, which must exist; nothing reaches the network.
        case replay
        /// Answer from the file when it exists; else call the live API and record the file.
        case record
        /// Call the live API and record the file anew.
        case rerecord
        /// Call the live API, and compare each exchange with the file's: see ``Cassette/Drift``.
        case verify

        /// The environment variable that chooses the mode: `COREAPI_CASSETTES`.
        public static let environmentVariable = "COREAPI_CASSETTES"

        /// The mode `COREAPI_CASSETTES` names (`replay`, `record`, `rerecord` or `verify`, in any case);
        /// ``replay`` when it is unset, empty or another value.
        /// - Parameter environment: The environment to read; the process's by default.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Mode {
            Mode(rawValue: environment[environmentVariable]?.lowercased() ?? "") ?? .replay
        }
    }

    /// The HAR file.
    public let url: URL
    /// The mode the cassette was made with.
    public let mode: Mode
    /// What is hidden in recordings, and in requests before they are compared.
    public let redaction: Cassette.Redaction
    /// The rules that decide whether an entry answers a request.
    public let matchers: [Cassette.Matcher]
    /// Whether replayed requests must come in the recorded order.
    public let order: Cassette.Player.Order
    /// How recordings are written.
    public let settings: Cassette.Recorder.Settings
    /// Whether ``finish()`` throws when verify mode finds drift; by default it only reports it.
    public let failsOnDrift: Bool
    private let active = LockedValue<(player: Cassette.Player?, recorder: Cassette.Recorder?)>((nil, nil))

    /// Creates a cassette.
    /// - Parameters:
    ///   - url: The HAR file.
    ///   - mode: What to do with it; as `COREAPI_CASSETTES` says by default.
    ///   - redaction: What to hide; the built-in and default secrets when left out. Pass the session's
    ///     ``/CoreAPI/SessionPolicy/secrets``.
    ///   - matchers: The rules that decide whether an entry answers a request.
    ///   - order: Whether replayed requests must come in the recorded order.
    ///   - settings: The body limit and timestamps of recordings.
    ///   - failsOnDrift: Whether verify mode's drift fails ``finish()``.
    public init(
        url: URL,
        mode: Mode = .fromEnvironment(),
        redaction: Cassette.Redaction = Cassette.Redaction(),
        matchers: [Cassette.Matcher] = Cassette.Matcher.defaults,
        order: Cassette.Player.Order = .unordered,
        settings: Cassette.Recorder.Settings = Cassette.Recorder.Settings(),
        failsOnDrift: Bool = false
    ) {
        self.url = url
        self.mode = mode
        self.redaction = redaction
        self.matchers = matchers
        self.order = order
        self.settings = settings
        self.failsOnDrift = failsOnDrift
    }

    /// Creates a cassette in `folder/<name>.har`; see ``init(url:mode:redaction:matchers:order:settings:failsOnDrift:)``.
    /// - Parameters:
    ///   - name: The file's name, without `.har`.
    ///   - folder: The folder that holds the cassettes.
    ///   - mode: What to do with the file.
    ///   - redaction: What to hide.
    ///   - settings: The body limit and timestamps of recordings.
    public convenience init(
        named name: String,
        in folder: URL,
        mode: Mode = .fromEnvironment(),
        redaction: Cassette.Redaction = Cassette.Redaction(),
        settings: Cassette.Recorder.Settings = Cassette.Recorder.Settings()
    ) {
        self.init(
            url: folder.appendingPathComponent(name).appendingPathExtension("har"),
            mode: mode,
            redaction: redaction,
            settings: settings
        )
    }

    /// What the cassette does: ``mode``, except that ``Mode/record`` is ``Mode/replay`` when the file exists.
    public var effectiveMode: Mode {
        mode == .record && FileManager.default.fileExists(atPath: url.path) ? .replay : mode
    }

    /// The transport for the test's session: a player of the file, or a recorder over `live`.
    /// - Parameter live: The transport that reaches the real API; made only when the mode calls it.
    /// - Returns: The transport; use one per cassette.
    /// - Throws: ``Cassette/Failure/missingCassette(path:)`` when replay finds no file, or what reading the
    ///   file throws.
    public func makeTransport(live: @autoclosure () -> any Transport) throws -> any Transport {
        let mode = effectiveMode
        var player: Cassette.Player?
        if mode == .replay || mode == .verify {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw Cassette.Failure.missingCassette(path: url.path)
            }
            player = try Cassette.Player(contentsOf: url, matchers: matchers, order: order, redaction: redaction)
        }
        let recorder =
            mode == .replay ? nil : Cassette.Recorder(wrapping: live(), redaction: redaction, settings: settings)
        active.withLock { $0 = (player, recorder) }
        if let recorder { return recorder }
        return player!
    }

    /// Ends the test's use of the cassette: checks the replay, writes the recording, or compares the live
    /// exchanges with the file.
    /// - Returns: The drift verify mode found, each also written to standard error; empty in other modes.
    /// - Throws: In replay, the first request no entry answered (``Cassette/Failure/noMatch(_:)``), then
    ///   ``Cassette/Failure/unusedEntries(_:)``; in record modes, ``Cassette/Failure/unwritableFile(path:)``; in
    ///   verify mode with ``failsOnDrift``, ``Cassette/Failure/drift(_:)``.
    @discardableResult
    public func finish() throws -> [Cassette.Drift] {
        let (player, recorder) = active.current
        switch (player, recorder) {
        case (let player?, nil):
            if let failure = player.failures.first { throw failure }
            try player.checkAllEntriesUsed()
            return []
        case (nil, let recorder?):
            try recorder.archive.write(to: url)
            return []
        case (let player?, let recorder?):
            let drift = Self.drift(of: recorder.archive, against: player)
            for report in drift {
                FileHandle.standardError.write(Data("Cassette \(url.lastPathComponent) drifted: \(report)\n".utf8))
            }
            if failsOnDrift, !drift.isEmpty { throw Cassette.Failure.drift(drift) }
            return drift
        case (nil, nil):
            return []
        }
    }

    /// The drift of each live exchange from the entry that answers its request.
    static func drift(of live: Cassette.Archive, against player: Cassette.Player) -> [Cassette.Drift] {
        live.log.entries.compactMap { entry in
            let path = URLComponents(string: entry.request.url)?.path ?? entry.request.url
            let request = "\(entry.request.method) \(path)"
            switch player.take(entry.request) {
            case .failure:
                return Cassette.Drift(request: request, differences: ["no recorded entry answers this request"])
            case .success(let recorded):
                let differences = Cassette.Drift.differences(recorded: recorded, live: entry.response)
                return differences.isEmpty ? nil : Cassette.Drift(request: request, differences: differences)
            }
        }
    }
}
