public import Foundation

extension Cassette {
    /// An HTTP Archive (HAR 1.2): the file a ``Cassette`` records to and replays from, and the one browsers'
    /// developer tools and proxies such as mitmproxy export.
    ///
    /// Reading is lenient where exporters differ: fields a tool leaves out get their HAR defaults, fields
    /// whose names start with `_` (vendor fields) and fields CoreAPI does not use are ignored. What CoreAPI
    /// cannot use — an entry without a method, a URL that is not absolute, a body marked base64 that is not —
    /// fails with ``Cassette/Failure/unusableEntry(index:reason:)`` naming the entry, when a ``Cassette/Player`` loads
    /// it.
    ///
    /// Writing is deterministic so that a cassette diffs well in review: keys sorted, pretty-printed, entries
    /// in the order their exchanges began.
    public struct Archive: Sendable, Hashable, Codable {
        /// The archive's one log.
        public var log: Log

        /// Creates an archive of `entries`.
        /// - Parameters:
        ///   - entries: The exchanges, in order.
        ///   - creator: The program that wrote the archive; CoreAPI by default.
        public init(entries: [Entry] = [], creator: Creator = Creator(name: "CoreAPI", version: "1")) {
            log = Log(version: "1.2", creator: creator, entries: entries)
        }

        /// Reads an archive from a file.
        /// - Parameter url: The file's location.
        /// - Throws: ``Cassette/Failure/unreadableFile(path:)`` or ``Cassette/Failure/invalidArchive(path:reason:)``.
        public init(contentsOf url: URL) throws {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw Cassette.Failure.unreadableFile(path: url.path)
            }
            do {
                self = try JSONDecoder().decode(Cassette.Archive.self, from: data)
            } catch {
                throw Cassette.Failure.invalidArchive(path: url.path, reason: Self.reason(of: error))
            }
        }

        /// The archive as JSON: keys sorted, two-space indentation as the encoder writes it, `/` unescaped.
        public func encoded() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            var data = try encoder.encode(self)
            data.append(UInt8(ascii: "\n"))
            return data
        }

        /// Writes the archive to `url`, creating its folder when needed, atomically.
        /// - Parameter url: The file's location.
        /// - Throws: ``Cassette/Failure/unwritableFile(path:)`` when it cannot be written.
        public func write(to url: URL) throws {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                try encoded().write(to: url, options: .atomic)
            } catch {
                throw Cassette.Failure.unwritableFile(path: url.path)
            }
        }

        /// A decoding error as one line: what was wrong, and where.
        private static func reason(of error: any Error) -> String {
            guard let error = error as? DecodingError else { return "not JSON" }
            let (context, what): (DecodingError.Context?, String) =
                switch error {
                case .keyNotFound(let key, let context): (context, "no \"\(key.stringValue)\"")
                case .typeMismatch(_, let context): (context, "a value of the wrong type")
                case .valueNotFound(_, let context): (context, "a null value")
                case .dataCorrupted(let context): (context, "not JSON")
                @unknown default: (nil, "not a HAR file")
                }
            let path = context?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.map { $0.isEmpty ? what : "\(what) at \($0)" } ?? what
        }
    }
}

extension Cassette.Archive {
    /// The log: the format's version, its creator and its entries.
    public struct Log: Sendable, Hashable, Codable {
        /// The HAR version: `1.2`.
        public var version: String
        /// The program that wrote the archive.
        public var creator: Creator
        /// The exchanges, in order.
        public var entries: [Entry]

        /// Creates a log.
        /// - Parameters:
        ///   - version: The HAR version.
        ///   - creator: The program that wrote it.
        ///   - entries: The exchanges.
        public init(version: String = "1.2", creator: Creator, entries: [Entry]) {
            self.version = version
            self.creator = creator
            self.entries = entries
        }

        /// Reads a log; a missing version or creator gets a default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
            creator = try container.decodeIfPresent(Creator.self, forKey: .creator) ?? Creator(name: "", version: "")
            entries = try container.decode([Entry].self, forKey: .entries)
        }
    }

    /// The program that wrote an archive.
    public struct Creator: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// Its version.
        public var version: String

        /// Creates a creator.
        /// - Parameters:
        ///   - name: The program's name.
        ///   - version: The program's version.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// One exchange: a request, its response, when it began and how long its phases took.
    public struct Entry: Sendable, Hashable, Codable {
        /// When the exchange began, as ISO 8601 text.
        public var startedDateTime: String
        /// The whole exchange's duration in milliseconds.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response.
        public var response: Response
        /// The cache's part: always empty here.
        public var cache: Cache
        /// The durations of the exchange's phases.
        public var timings: Timings

        /// Creates an entry.
        /// - Parameters:
        ///   - startedDateTime: When the exchange began, as ISO 8601 text.
        ///   - time: Its duration in milliseconds.
        ///   - request: The request.
        ///   - response: The response.
        ///   - timings: The phases' durations.
        public init(startedDateTime: String, time: Double, request: Request, response: Response, timings: Timings) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = Cache()
            self.timings = timings
        }

        /// Reads an entry; missing times and timings get their defaults.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
            time = try container.decodeIfPresent(Double.self, forKey: .time) ?? -1
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            cache = Cache()
            timings = try container.decodeIfPresent(Timings.self, forKey: .timings) ?? Timings()
        }
    }

    /// An entry's cache information, which CoreAPI neither writes nor reads.
    public struct Cache: Sendable, Hashable, Codable {
        /// Creates an empty cache part.
        public init() {}
    }

    /// A header field, a query parameter, a form parameter or a cookie: a name and a value.
    public struct Field: Sendable, Hashable, Codable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Reads a field; a missing value (as in some exporters' form parameters) is empty.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
        }
    }

    /// How long each phase of an exchange took, in milliseconds; `-1` for a phase that did not happen or
    /// is unknown.
    public struct Timings: Sendable, Hashable, Codable {
        /// Waiting for a connection.
        public var blocked: Double?
        /// Resolving the host's name.
        public var dns: Double?
        /// Opening the connection, TLS included.
        public var connect: Double?
        /// Sending the request.
        public var send: Double
        /// Waiting for the response's first byte.
        public var wait: Double
        /// Receiving the response.
        public var receive: Double
        /// The TLS handshake, within ``connect``.
        public var ssl: Double?

        /// Creates timings; the ones left out are unknown.
        /// - Parameters:
        ///   - blocked: Waiting for a connection.
        ///   - dns: Resolving the name.
        ///   - connect: Opening the connection.
        ///   - send: Sending the request.
        ///   - wait: Waiting for the response.
        ///   - receive: Receiving the response.
        ///   - ssl: The TLS handshake.
        public init(
            blocked: Double? = -1,
            dns: Double? = -1,
            connect: Double? = -1,
            send: Double = 0,
            wait: Double = 0,
            receive: Double = 0,
            ssl: Double? = -1
        ) {
            (self.blocked, self.dns, self.connect, self.ssl) = (blocked, dns, connect, ssl)
            (self.send, self.wait, self.receive) = (send, wait, receive)
        }

        /// Reads timings; missing ones are unknown or zero.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            blocked = try container.decodeIfPresent(Double.self, forKey: .blocked)
            dns = try container.decodeIfPresent(Double.self, forKey: .dns)
            connect = try container.decodeIfPresent(Double.self, forKey: .connect)
            ssl = try container.decodeIfPresent(Double.self, forKey: .ssl)
            send = try container.decodeIfPresent(Double.self, forKey: .send) ?? 0
            wait = try container.decodeIfPresent(Double.self, forKey: .wait) ?? 0
            receive = try container.decodeIfPresent(Double.self, forKey: .receive) ?? 0
        }
    }
}
