/// Ends the call behind a streamed sequence when the sequence's last iterator is gone: leaving a
/// `for try await` loop early drops its iterator, and nothing more should arrive for it.
final class ReaderLifetime: Sendable {
    private let end: @Sendable () -> Void

    /// Calls `end` when the reader goes away.
    init(end: @escaping @Sendable () -> Void) {
        self.end = end
    }

    deinit {
        end()
    }
}
