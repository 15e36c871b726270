/// How booleans become query or form parameters.
public enum BoolEncodingStrategy: Sendable, Hashable {
    /// `true` and `false`.
    case literal
    /// `1` and `0`.
    case numeric
}
