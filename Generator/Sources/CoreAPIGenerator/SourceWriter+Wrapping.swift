/// Lines too long for one line (long type names and paths of large documents), broken as swift-format
/// breaks them.
extension SourceWriter {
    /// `guard let body = try? JSONDecoder().decode(Type.self, from: failure.body) else {`, on one line when it
    /// fits, else with the condition below `guard` (its arguments one a line when it still does not fit).
    /// The caller writes the `else` block's body and its `}`.
    mutating func guardDecoding(_ type: String) {
        let condition = "let body = try? JSONDecoder().decode(\(type).self, from: failure.body)"
        if fits("guard \(condition) else {") {
            line("guard \(condition) else {")
            return
        }
        line("guard")
        indented { writer in
            if writer.fits(condition) {
                writer.line(condition)
            } else {
                writer.call("let body = try? JSONDecoder().decode", arguments: ["\(type).self", "from: failure.body"])
            }
        }
        line("else {")
    }

    /// `head(arguments…)tail` on one line when it fits, else one argument a line and `)tail` alone.
    mutating func call(_ head: String, arguments: [String], tail: String = "") {
        let single = "\(head)(\(arguments.joined(separator: ", ")))\(tail)"
        if fits(single) {
            line(single)
            return
        }
        line(head + "(")
        indented { writer in
            for (index, argument) in arguments.enumerated() {
                writer.line(argument + (index < arguments.count - 1 ? "," : ""))
            }
        }
        line(")" + tail)
    }

    /// `target = try container.decodeIfPresent(Type.self, forKey: .key) ?? value`, on one line when it fits,
    /// else with the call and the default each on a line of their own below the assignment, or the call's
    /// arguments one a line when the call alone does not fit either.
    mutating func assignmentWithDefault(
        _ target: String,
        call head: String,
        arguments: [String],
        default value: String
    ) {
        let call = "\(head)(\(arguments.joined(separator: ", ")))"
        if fits("\(target) = \(call) ?? \(value)") {
            line("\(target) = \(call) ?? \(value)")
            return
        }
        line(target + " =")
        indented { writer in
            if writer.fits(call) {
                writer.line(call)
                writer.line("?? " + value)
            } else {
                writer.call(head, arguments: arguments, tail: " ?? " + value)
            }
        }
    }

    /// `declaration: conformances {`, the lines `body` writes one level deeper, and `}`; when the first line
    /// does not fit, the conformances fill as many lines as they need, one level deeper, and `{` is alone.
    mutating func typeBlock(_ declaration: String, conformances: String, _ body: (inout SourceWriter) -> Void) {
        guard !fits("\(declaration): \(conformances) {") else {
            block("\(declaration): \(conformances)", body)
            return
        }
        let names = conformances.components(separatedBy: ", ")
        var current = declaration + ":"
        for (index, name) in names.enumerated() {
            let piece = name + (index < names.count - 1 ? "," : "")
            let isFirstLine = current.hasPrefix(declaration)
            if fits((isFirstLine ? "" : "    ") + current + " " + piece) || current.isEmpty {
                current += current.isEmpty ? piece : " " + piece
            } else {
                line((isFirstLine ? "" : "    ") + current)
                current = piece
            }
        }
        line((current.hasPrefix(declaration) ? "" : "    ") + current)
        line("{")
        indented(body)
        line("}")
    }

    /// `if let name { statement }` (or `for item in name { … }`), on one line when it fits, else as a block.
    mutating func shortBlock(_ header: String, _ statement: String) {
        if fits("\(header) { \(statement) }") {
            line("\(header) { \(statement) }")
        } else {
            block(header) { writer in writer.line(statement) }
        }
    }

    /// A string literal's contents (`/a/\(b)/c`) as literals joined by `+` when one literal does not fit on a
    /// line at the current indentation: split before a `/` outside an interpolation, as many segments a
    /// line as fit, each continuation line one level deeper.
    mutating func pathLiteral(_ contents: String) {
        guard !fits("\"\(contents)\"") else {
            line("\"\(contents)\"")
            return
        }
        var pieces: [String] = []
        var current = ""
        var nesting = 0
        var previous: Character?
        for character in contents {
            if character == "/", nesting == 0, !current.isEmpty {
                pieces.append(current)
                current = ""
            }
            if character == "(", previous == "\\" || nesting > 0 { nesting += 1 }
            if character == ")", nesting > 0 { nesting -= 1 }
            current.append(character)
            previous = character
        }
        pieces.append(current)
        var literals: [String] = []
        var text = ""
        for piece in pieces {
            let prefix = literals.isEmpty ? "\"" : "    + \""
            if !text.isEmpty, !fits(prefix + text + piece + "\"") {
                literals.append(prefix + text + "\"")
                text = ""
            }
            text += piece
        }
        literals.append((literals.isEmpty ? "\"" : "    + \"") + text + "\"")
        for literal in literals { line(literal) }
    }
}
