import Foundation

/// Accumulates lines of Swift source with four-space indentation.
struct SourceWriter {
    static let lineLength = 120
    private(set) var lines: [String] = []
    private var depth = 0
    /// `public ` when the module's declarations are public, else empty: written before each declaration a
    /// consumer of the module needs.
    var access = ""

    /// Whether the module's declarations are public.
    var isPublic: Bool { !access.isEmpty }

    /// Adds `text`'s doc comment, or `fallback`'s when there is none and the declaration is public (every
    /// public declaration has one).
    mutating func doc(_ text: String?, public fallback: String) {
        let hasText = text.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
        doc(hasText ? text : (isPublic ? fallback : nil))
    }

    /// Adds `text` at the current indentation; an empty text adds an empty line.
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Adds `case pattern: body` on one line when it fits, else the body on the next line, one level deeper.
    mutating func caseLine(_ pattern: String, _ body: String) {
        let single = "case \(pattern): \(body)"
        if depth * 4 + single.count <= Self.lineLength {
            line(single)
        } else {
            line("case \(pattern):")
            line("    " + body)
        }
    }

    /// Whether `text` fits on one line at the current indentation.
    func fits(_ text: String) -> Bool {
        depth * 4 + text.count <= Self.lineLength
    }

    /// Adds the lines `body` writes one level deeper.
    mutating func indented(_ body: (inout SourceWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Adds an empty line unless the last line is empty or opens a block.
    mutating func separate() {
        guard let last = lines.last, !last.isEmpty, !last.hasSuffix("{") else { return }
        lines.append("")
    }

    /// Adds `header {`, the lines `body` writes one level deeper, and `}`.
    mutating func block(_ header: String, _ body: (inout SourceWriter) -> Void) {
        line(header + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Adds `switch subject {`, the cases `body` writes at the same depth (the project's style), and `}`.
    mutating func switchBlock(_ subject: String, _ body: (inout SourceWriter) -> Void) {
        line("switch \(subject) {")
        body(&self)
        line("}")
    }

    /// Adds a `///` comment with `text`'s paragraphs wrapped to the line length.
    mutating func doc(_ text: String?) {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        let width = Self.lineLength - depth * 4 - 4
        var paragraphs: [String] = []
        // Every line break, `\r\n` (one Character) and `\r` included: each would end a `///` line.
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: .newlines) {
            paragraphs.append(raw.trimmingCharacters(in: .whitespaces))
        }
        while paragraphs.last?.isEmpty == true { paragraphs.removeLast() }
        while paragraphs.first?.isEmpty == true { paragraphs.removeFirst() }
        var previousEmpty = false
        for paragraph in paragraphs {
            if paragraph.isEmpty {
                if !previousEmpty { line("///") }
                previousEmpty = true
                continue
            }
            previousEmpty = false
            for wrapped in Self.wrap(paragraph, width: width) {
                line("/// " + wrapped)
            }
        }
    }

    /// `text` split at spaces into lines of at most `width` characters (a longer word keeps its own line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var result: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                result.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The source, ending in one newline.
    var text: String {
        var lines = self.lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The text as the contents of a Swift string literal.
    var swiftLiteral: String {
        var result = ""
        for character in self {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }

}
