/// Performs one method type through a session, and nothing else: hand a component a provider instead
/// of the session, and it can make only the calls it is meant to make, and cancel only its own.
///
/// ```swift
/// let avatars = session.provider(for: GetAvatar.self)
/// let image = try await avatars.perform(GetAvatar(userID: 7))
/// avatars.cancelAll()  // the provider's calls only
/// ```
///
/// For a family of methods, wrap a provider of each, or give the component a type of its own that
/// holds the session privately and forwards only the family's methods.
public struct MethodProvider<Method: ApiMethod>: Sendable {
    private let session: ApiSession
    /// Tags the calls made through this provider (and its copies).
    private let group = Group()

    private final class Group: Sendable {}

    init(session: ApiSession) {
        self.session = session
    }

    /// Performs `method` through the session; see ``ApiSession/perform(_:options:progress:)``.
    public func perform(
        _ method: Method,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Method.Output {
        try await session.perform(method, progress: progress, group: ObjectIdentifier(group))
    }

    /// How many calls made through this provider are in flight.
    public var callCount: Int {
        session.calls.count(group: ObjectIdentifier(group))
    }

    /// Cancels the calls made through this provider; calls made otherwise go on.
    public func cancelAll() {
        session.calls.cancel(group: ObjectIdentifier(group))
    }
}
