/// How parameter encoders write values the wire formats have no single spelling for: arrays
/// (``Arrays``), booleans (``Bools``), dates (``Dates``, ``CustomDate``) and keys (``Keys``).
public enum EncodingStrategy {}

extension EncodingStrategy {
    /// How arrays become query or form parameters.
    public enum Arrays: Sendable, Hashable {
        /// `tags[]=a&tags[]=b`.
        case brackets
        /// `tags=a&tags=b`.
        case repeatedKey
        /// `tags=a,b` (the comma itself is not escaped; commas inside values are).
        case commaSeparated
        /// `tags[0]=a&tags[1]=b`.
        case indexed
    }
}

extension EncodingStrategy {
    /// How booleans become query or form parameters.
    public enum Bools: Sendable, Hashable {
        /// `true` and `false`.
        case literal
        /// `1` and `0`.
        case numeric
    }
}
