/// The bytes of a streamed body that have arrived and wait for their reader, counted against a limit:
/// what keeps a ``StreamedResponse/Body`` bounded when its reader is slower than the network.
///
/// The session counts each piece in as it hands it to the stream, and out as the reader takes it. A
/// transport holds the network off by waiting for room before it hands the next piece on
/// (``TransportOptions/BodyHandler/waitForRoom(for:)``, which an AsyncHTTPClient transport awaits before it asks
/// its body sequence for more); URLSession's delegate path suspends its task while the buffer is full
/// where the platform can (Apple), and ends the stream with ``ApiError/streamBufferFull(limit:)`` where
/// it cannot (Linux).
///
/// A piece fits when the buffer has room for it, or when the buffer is empty: a piece larger than the
/// limit is handed over alone rather than never.
final class StreamBuffer: Sendable {
    /// The most bytes that wait for the reader.
    let limit: Int

    private struct State {
        /// Bytes handed to the stream and not taken by the reader yet.
        var buffered = 0
        /// The most bytes that ever waited at once.
        var highWaterMark = 0
        /// A transport waiting for room for a piece of `count` bytes.
        var writer: (count: Int, continuation: CheckedContinuation<Void, any Error>)?
        /// Runs once when the buffer has drained to half its limit (a suspended task resumes).
        var onRoom: (@Sendable () -> Void)?
        /// The reader is gone or the exchange ended: nobody waits for room any more.
        var isClosed = false
    }

    private let state = LockedValue(State())

    /// A buffer that holds at most `limit` bytes (at least one).
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// The most bytes that waited for the reader at once so far.
    var highWaterMark: Int {
        state.withLock { $0.highWaterMark }
    }

    /// Whether as many bytes as the limit, or more, wait for the reader.
    var isFull: Bool {
        state.withLock { $0.buffered >= limit }
    }

    /// Whether a piece of `count` bytes fits now.
    func hasRoom(for count: Int) -> Bool {
        state.withLock { fits(count, $0.buffered) }
    }

    private func fits(_ count: Int, _ buffered: Int) -> Bool {
        buffered == 0 || count <= limit - buffered
    }

    /// Counts in a piece of `count` bytes handed to the reader.
    func add(_ count: Int) {
        state.withLock { state in
            state.buffered += count
            state.highWaterMark = max(state.highWaterMark, state.buffered)
        }
    }

    /// Counts out a piece of `count` bytes the reader took, and wakes a transport waiting for room.
    func remove(_ count: Int) {
        let (writer, onRoom) = state.withLock { state in
            state.buffered -= count
            var writer: CheckedContinuation<Void, any Error>?
            if let waiting = state.writer, fits(waiting.count, state.buffered) {
                writer = waiting.continuation
                state.writer = nil
            }
            var onRoom: (@Sendable () -> Void)?
            if state.buffered <= limit / 2 {
                onRoom = state.onRoom
                state.onRoom = nil
            }
            return (writer, onRoom)
        }
        writer?.resume()
        onRoom?()
    }

    /// Returns once a piece of `count` bytes fits.
    /// - Throws: `CancellationError` when the task is cancelled or the buffer closed first.
    func waitForRoom(for count: Int) async throws {
        if hasRoom(for: count) { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLock { state in
                    if state.isClosed { return .failure(CancellationError()) }
                    if fits(count, state.buffered) { return .success(()) }
                    state.writer = (count, continuation)
                    return nil
                }
                if let ready {
                    continuation.resume(with: ready)
                }
            }
        } onCancel: {
            close()
        }
    }

    /// Runs `action` once the buffer has drained to half its limit: at once when it has, never once the
    /// buffer is closed.
    func whenDrained(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if state.isClosed { return false }
            if state.buffered <= limit / 2 { return true }
            state.onRoom = action
            return false
        }
        if now {
            action()
        }
    }

    /// Ends the waiting: a transport waiting for room gets `CancellationError`, and nothing waits again.
    func close() {
        let writer = state.withLock { state in
            state.isClosed = true
            state.onRoom = nil
            defer { state.writer = nil }
            return state.writer?.continuation
        }
        writer?.resume(throwing: CancellationError())
    }
}
