extension Cassette {
    /// Why a cassette could not be read, written or replayed.
    ///
    /// A ``Cassette/Player`` is a ``/CoreAPI/Transport``, which throws only ``/CoreAPI/ApiError``: a call
    /// that no entry answers fails with ``/CoreAPI/ApiError/unknown(_:)``, whose
    /// ``/CoreAPI/ApiError/underlyingError`` is this error. Its description names entries by their number
    /// in the file (from 0) and their method and path; every value in it went through the cassette's
    /// ``Cassette/Redaction`` first.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file could not be read.
        case unreadableFile(path: String)
        /// The file could not be written.
        case unwritableFile(path: String)
        /// The file is not an HTTP Archive: not JSON, or without a `log` and its `entries`.
        case invalidArchive(path: String, reason: String)
        /// An entry CoreAPI cannot replay: the entry's number in the file (from 0), and why.
        case unusableEntry(index: Int, reason: String)
        /// Replay was asked for, and there is no cassette at the path.
        case missingCassette(path: String)
        /// No unused entry answers the request.
        case noMatch(NoMatch)
        /// The entry that answers the request kept its body only as a digest, which cannot be replayed.
        case bodyNotRecorded(index: Int)
        /// Entries no request used, as `#<number> <method> <path>`.
        case unusedEntries([String])
        /// The live exchanges differ from the cassette, in verify mode when asked to fail on drift.
        case drift([Cassette.Drift])

        /// A request no entry answered, and the entries closest to it.
        public struct NoMatch: Sendable, Hashable {
            /// The request's method and URL, redacted.
            public var request: String
            /// The closest entries, closest first: at most three.
            public var closest: [Candidate]

            /// Creates a description of an unanswered request.
            /// - Parameters:
            ///   - request: The method and URL, redacted.
            ///   - closest: The closest entries.
            public init(request: String, closest: [Candidate]) {
                self.request = request
                self.closest = closest
            }
        }

        /// An entry that did not answer a request, and how it differs.
        public struct Candidate: Sendable, Hashable {
            /// The entry's number in the file, from 0.
            public var index: Int
            /// The entry's method and path.
            public var summary: String
            /// How the request differs from the entry, one line per matcher that refused it.
            public var differences: [String]

            /// Creates a candidate.
            /// - Parameters:
            ///   - index: The entry's number.
            ///   - summary: Its method and path.
            ///   - differences: How the request differs from it.
            public init(index: Int, summary: String, differences: [String]) {
                self.index = index
                self.summary = summary
                self.differences = differences
            }
        }

        /// What went wrong, with the entries and differences involved.
        public var description: String {
            switch self {
            case .unreadableFile(let path): return "Cannot read the cassette at \(path)"
            case .unwritableFile(let path): return "Cannot write the cassette at \(path)"
            case .invalidArchive(let path, let reason): return "\(path) is not an HTTP Archive: \(reason)"
            case .unusableEntry(let index, let reason):
                return "Entry #\(index) of the cassette cannot be replayed: \(reason)"
            case .missingCassette(let path):
                return "No cassette at \(path); record it with COREAPI_CASSETTES=record"
            case .bodyNotRecorded(let index):
                return
                    "Entry #\(index) kept its body only as a digest; raise the recording's body limit and record again"
            case .unusedEntries(let entries):
                return "The cassette has entries no request used: " + entries.joined(separator: "; ")
            case .drift(let drift):
                return "The live API differs from the cassette:\n" + drift.map(\.description).joined(separator: "\n")
            case .noMatch(let noMatch):
                var lines = ["No entry of the cassette answers \(noMatch.request)"]
                if noMatch.closest.isEmpty { lines.append("  (the cassette has no unused entry)") }
                for candidate in noMatch.closest {
                    lines.append("  closest: \(candidate.summary), which differs in")
                    lines += candidate.differences.map { "    - \($0)" }
                }
                return lines.joined(separator: "\n")
            }
        }
    }
}
