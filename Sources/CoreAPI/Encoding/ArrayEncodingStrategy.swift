/// How arrays become query or form parameters.
public enum ArrayEncodingStrategy: Sendable, Hashable {
    /// `tags[]=a&tags[]=b`.
    case brackets
    /// `tags=a&tags=b`.
    case repeatedKey
    /// `tags=a,b` (the comma itself is not escaped; commas inside values are).
    case commaSeparated
    /// `tags[0]=a&tags[1]=b`.
    case indexed
}
