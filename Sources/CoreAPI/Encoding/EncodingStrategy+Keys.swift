extension EncodingStrategy {
    /// How property names become parameter keys. Shared by every CoreAPI parameters encoder.
    public enum Keys: Sendable {
        /// Keys as the `CodingKey`s spell them.
        case useDefaultKeys
        /// `userID` → `user_id`, `firstName` → `first_name`.
        case convertToSnakeCase
        /// `firstName` → `first-name`.
        case convertToKebabCase
        /// Keys converted by a function.
        case custom(@Sendable (String) -> String)

        /// `key` converted by this strategy.
        public func convert(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: key
            case .convertToSnakeCase: Self.splitWords(key, separator: "_")
            case .convertToKebabCase: Self.splitWords(key, separator: "-")
            case .custom(let convert): convert(key)
            }
        }

        /// Lower-cases `key` and puts `separator` between words, where a word starts at an upper-case
        /// letter that follows a lower-case letter or digit, or that starts a capitalised run (`URLValue`
        /// → `url_value`). Leading and trailing underscores are kept.
        static func splitWords(_ key: String, separator: Character) -> String {
            guard key.contains(where: \.isUppercase) else { return key }
            let characters = Array(key)
            var result = ""
            result.reserveCapacity(characters.count + 4)
            for (index, character) in characters.enumerated() {
                if character.isUppercase, index > 0 {
                    let previous = characters[index - 1]
                    let next = index + 1 < characters.count ? characters[index + 1] : nil
                    let startsWord =
                        previous.isLowercase || previous.isNumber
                        || (previous.isUppercase && next.map { $0.isLowercase } == true)
                    if startsWord && previous != "_" { result.append(separator) }
                }
                result += character.lowercased()
            }
            return result
        }
    }
}
