import Foundation

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), as a private cache reads
/// them: names lower-cased, the first of a repeated directive wins, a value without a number is absent.
struct CacheControl {
    private var directives: [String: String?] = [:]

    /// The directives of every `Cache-Control` field in `headers`.
    init(_ headers: Headers) {
        for value in headers.values(for: "Cache-Control") {
            for part in value.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard let rawName = pieces.first else { continue }
                let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
                guard !name.isEmpty, directives[name] == nil else { continue }
                let argument =
                    pieces.count > 1
                    ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                        in: CharacterSet(charactersIn: "\"")
                    )
                    : nil
                directives[name] = .some(argument)
            }
        }
    }

    /// Whether the directive `name` is present.
    func has(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The seconds of the directive `name` (`max-age=60`), when present with a number.
    func seconds(_ name: String) -> TimeInterval? {
        guard let argument = directives[name] ?? nil, let value = Int(argument), value >= 0 else { return nil }
        return TimeInterval(value)
    }
}
