/// Finds a stored property that supplies one of ``ApiMethod``'s requirements and would also be sent as a
/// parameter with the same value: `let path = "/get"` would otherwise send `?path=%2Fget` without a word.
///
/// Which requirements a method type supplies with stored properties is found once per type
/// (``MethodFacts``), from its mirror (a property wrapper such as ``Excluded`` is stored as `_path`, so it
/// is not one of them). Only a type that has one pays for the check, which encodes the method's
/// parameters once more and compares the value under the property's key with the requirement's.
enum StoredRequirements {
    /// The requirements a stored property may supply that encode as text.
    private static let names: Set<String> = ["path", "hostProviderKey"]

    /// Throws when `method` would send a requirement's stored property as a parameter with the
    /// requirement's value.
    /// - Throws: ``ApiError/InvalidRequestReason/requirementSentAsParameter(property:)``.
    static func check<M: ApiMethod>(_ method: M, facts: MethodFacts) throws(ApiError) {
        let stored = facts.storedRequirements
        guard !stored.isEmpty,
            let tree = try? ParameterTreeEncoder().encode(method),
            case .object(let fields) = tree
        else { return }
        for name in stored {
            let value = name == "path" ? method.path : method.hostProviderKey
            if fields.contains(where: { $0.key == name && $0.value == .string(value) }) {
                throw ApiError.invalidRequest(.requirementSentAsParameter(property: name))
            }
        }
    }

    /// The requirement names a method type supplies with stored properties, from the labels of its
    /// mirror; found once per type (``MethodFacts``).
    static func supplied(byStoredNames storedNames: [String]) -> [String] {
        storedNames.filter { names.contains($0) }
    }
}
