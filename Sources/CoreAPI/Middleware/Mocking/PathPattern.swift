import Foundation

/// A path pattern where `*` matches any run of characters.
struct PathPattern: Sendable {
    private let pieces: [Substring]

    init(_ pattern: String) {
        pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
    }

    func matches(_ path: String) -> Bool {
        guard pieces.count > 1 else { return path == pieces.first.map(String.init) }
        var rest = Substring(path)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for (index, piece) in pieces.enumerated().dropFirst() {
            if index == pieces.count - 1 {
                return piece.isEmpty || rest.hasSuffix(piece)
            }
            guard !piece.isEmpty else { continue }
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
