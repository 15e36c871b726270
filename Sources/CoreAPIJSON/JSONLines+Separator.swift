extension JSONLines {
    /// What ends a record of a ``JSONLines`` body.
    public enum Separator: Sendable, Hashable {
        /// A line feed (JSON Lines); a carriage return before it is whitespace.
        case newline
        /// The record separator `0x1E` that starts each text of a JSON text sequence (RFC 7464).
        case recordSeparator

        var byte: UInt8 {
            switch self {
            case .newline: 0x0A
            case .recordSeparator: 0x1E
            }
        }
    }
}
