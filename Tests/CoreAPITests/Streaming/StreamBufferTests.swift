import Foundation
import Testing

@testable import CoreAPI

/// The bounded buffer of a streamed body: a piece fits while there is room or the buffer is empty, a
/// transport waiting for room goes on when the reader takes enough, and closing ends the wait.
@Suite(.timeLimit(.minutes(1)))
struct StreamBufferTests {
    /// Room is counted in bytes; a piece larger than the limit fits an empty buffer only.
    @Test(arguments: [
        (buffered: 0, piece: 10, fits: true),
        (buffered: 0, piece: 500, fits: true),
        (buffered: 60, piece: 40, fits: true),
        (buffered: 60, piece: 41, fits: false),
        (buffered: 100, piece: 1, fits: false),
    ])
    func aPieceFitsWhileThereIsRoomOrTheBufferIsEmpty(buffered: Int, piece: Int, fits: Bool) {
        let buffer = StreamBuffer(limit: 100)
        buffer.add(buffered)
        #expect(buffer.hasRoom(for: piece) == fits)
        #expect(buffer.isFull == (buffered >= 100))
        #expect(buffer.highWaterMark == buffered)
    }

    /// A wait for room returns once the reader has taken enough, not before.
    @Test func aWaitForRoomEndsWhenTheReaderTakesEnough() async throws {
        let buffer = StreamBuffer(limit: 100)
        buffer.add(80)
        let done = LockedValue(false)
        let writer = Task {
            try await buffer.waitForRoom(for: 50)
            done.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(50))
        buffer.remove(20)  // 60 + 50 still does not fit
        try await Task.sleep(for: .milliseconds(50))
        #expect(!done.current)
        buffer.remove(10)  // 50 + 50 fits
        try await writer.value
        #expect(done.current)
        #expect(buffer.highWaterMark == 80)
    }

    /// Closing the buffer, as when the reader leaves, ends a wait with `CancellationError`, and every
    /// later wait at once; so does cancelling the waiting task.
    @Test func closingOrCancellingEndsAWait() async throws {
        let buffer = StreamBuffer(limit: 10)
        buffer.add(10)
        let waiting = Task { try await buffer.waitForRoom(for: 1) }
        try await Task.sleep(for: .milliseconds(20))
        buffer.close()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await #expect(throws: CancellationError.self) { try await buffer.waitForRoom(for: 1) }

        let other = StreamBuffer(limit: 10)
        other.add(10)
        let cancelled = Task { try await other.waitForRoom(for: 1) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    /// A suspended transfer resumes once the buffer has drained to half its limit, once.
    @Test func aDrainedBufferRunsItsActionOnce() {
        let buffer = StreamBuffer(limit: 100)
        buffer.add(100)
        let runs = LockedValue(0)
        buffer.whenDrained { runs.withLock { $0 += 1 } }
        buffer.remove(40)
        #expect(runs.current == 0)
        buffer.remove(10)
        #expect(runs.current == 1)
        buffer.remove(50)
        #expect(runs.current == 1)
    }

    /// A stream's pieces are counted in as the session hands them over and out as the reader takes
    /// them: the high-water mark shows what waited at most.
    @Test func theReaderCountsPiecesOut() async throws {
        let buffer = StreamBuffer(limit: 1 << 20)
        let (pieces, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        for size in [300, 200, 500] {
            buffer.add(size)
            continuation.yield(Data(count: size))
        }
        continuation.finish()
        let body = StreamedResponse.Body(pieces, buffer: buffer, end: {})
        #expect(try await body.collect(upTo: .max).count == 1000)
        #expect(body.bufferHighWaterMark == 1000)
        #expect(buffer.hasRoom(for: 1 << 20))
    }
}
