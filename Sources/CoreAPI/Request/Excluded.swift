/// A method property that is never sent as a parameter: one used only in the path or in a header.
///
/// A method is `Encodable`, and everything its synthesized `encode(to:)` writes is a parameter. Mark a
/// property `@Excluded` to keep it out without writing `encode(to:)` or `CodingKeys` by hand:
///
/// ```swift
/// struct GetItem: ApiMethod {
///     typealias Response = Data
///     @Excluded var id: Int
///     var verbose = false
///     var hostProviderKey: String { "api" }
///     var path: String { "/items/\(id)" }
/// }
/// // GetItem(id: 7) sends GET /items/7?verbose=false, never ?id=7.
/// ```
///
/// The property is left out by every encoder, CoreAPI's and Foundation's alike: a synthesized
/// `encode(to:)` writes nothing for its key, not even `null`. It is the synthesized conformance that
/// skips it; a hand-written `encode(to:)` decides for itself.
@propertyWrapper
public struct Excluded<Value> {
    /// The value, for the method's own use.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Excluded: Sendable where Value: Sendable {}
extension Excluded: Equatable where Value: Equatable {}
extension Excluded: Hashable where Value: Hashable {}

extension Excluded: Encodable {
    /// Writes nothing. A synthesized `encode(to:)` does not call this: it skips the key altogether.
    public func encode(to encoder: any Encoder) throws {}
}

extension KeyedEncodingContainer {
    /// Skips an ``Excluded`` property: no key, no value.
    ///
    /// A synthesized `encode(to:)` calls this overload for an `@Excluded` property, so the parameters
    /// never name it.
    /// - Parameters:
    ///   - value: The excluded property.
    ///   - key: Its key, left out.
    public mutating func encode<Value>(_ value: Excluded<Value>, forKey key: Key) throws {}
}
