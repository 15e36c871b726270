/// A name for calls in flight, given by a method's ``CallOptions/callKey``: any hashable value, such as
/// `CallKey("avatar-\(userID)")` or `CallKey(userID)`.
///
/// Calls with the same key can be cancelled together (``ApiSession/cancelCalls(withKey:)``). When their
/// method ``CallOptions/sharesIdenticalCalls``, the key also lets requests other than `GET` and `HEAD`
/// share: calls of one method type with the same key whose requests are identical on the wire share one
/// exchange. The key says the requests may share; it never makes different requests the same.
public struct CallKey: Hashable, Sendable, CustomStringConvertible {
    private let value: any Hashable & Sendable

    /// A key made of `value`.
    public init(_ value: some Hashable & Sendable) {
        self.value = value
    }

    /// Equal when the values are equal as `AnyHashable` values: of the same type and equal, or numbers of
    /// the same value (`CallKey(1) == CallKey(1.0)`), as `AnyHashable` compares them.
    public static func == (lhs: CallKey, rhs: CallKey) -> Bool {
        AnyHashable(lhs.value) == AnyHashable(rhs.value)
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(value))
    }

    /// The value, as text.
    public var description: String { String(describing: value) }
}
