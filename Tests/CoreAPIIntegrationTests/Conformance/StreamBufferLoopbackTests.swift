import CoreAPITesting
import Foundation
import Testing

@testable import CoreAPI

/// A streamed body waits for its reader in a bounded buffer, on every transport: a slow reader holds
/// the transfer where the transport can pause it, and gets a typed error naming the limit where it
/// cannot; a fast reader of a large body is not held at all.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct StreamBufferLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// Reads `body` one piece at a time after `pause`, sleeping `perPiece` after each, and checks
        /// that the bytes are the fixture's (byte i is i % 251) in order; returns how many arrived and
        /// the error the body ended with, if any.
        private static func read(
            _ body: StreamedResponse.Body,
            pause: Duration,
            perPiece: Duration
        ) async throws -> (count: Int, isInOrder: Bool, error: ApiError?) {
            try await Task.sleep(for: pause)
            var count = 0
            var isInOrder = true
            do {
                for try await piece in body {
                    // The first and last byte of each piece catch a piece lost, repeated or moved.
                    if let first = piece.first, let last = piece.last {
                        isInOrder =
                            isInOrder && Int(first) == count % 251
                            && Int(last) == (count + piece.count - 1) % 251
                    }
                    count += piece.count
                    if perPiece > .zero {
                        try await Task.sleep(for: perPiece)
                    }
                }
            } catch let error as ApiError {
                return (count, isInOrder, error)
            }
            return (count, isInOrder, nil)
        }

        /// A reader that starts late and then sleeps after every piece of a 4 MiB body, with a 64 KiB
        /// buffer: where the transport pauses, every byte arrives in order and no more than the limit
        /// ever waited; URLSession on Linux ends the stream with `streamBufferFull` naming the limit,
        /// after bytes in order, and never buffered more than the limit either.
        ///
        /// Before the buffer was bounded, the whole body piled up behind the sleeping reader.
        @Test(arguments: TestTransport.underTest)
        func aSlowReaderHoldsTheTransferOrGetsTheTypedError(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let size = 4 << 20
            let limit = 64 << 10
            let method = GetDownload(size: size, name: uniqueName("slow"))
            let response = try await session.stream(method, limits: .unlimited, bufferLimit: limit)
            let body = response.body
            let (count, isInOrder, error) = try await Self.read(
                body,
                pause: .milliseconds(300),
                perPiece: .milliseconds(1)
            )
            #expect(isInOrder)
            if transport.pausesStreamsForSlowReaders {
                #expect(error == nil)
                #expect(count == size)
            } else {
                #expect(error == .streamBufferFull(limit: limit))
                #expect(count > 0 && count < size)
            }
            if transport.holdsStreamsWithinTheirLimit {
                #expect((body.bufferHighWaterMark ?? .max) <= limit)
            }
            print("slow reader (\(transport)): buffer high-water mark \(body.bufferHighWaterMark ?? -1) bytes")
            try await waitUntil { session.callsInFlight.isEmpty }
        }

        /// A reader that takes each piece as it comes gets a 32 MiB body whole and in order through the
        /// default buffer, on every transport.
        @Test(arguments: TestTransport.underTest)
        func aFastReaderOfALargeBodyIsNotHeld(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let size = 32 << 20
            let response = try await session.stream(
                GetDownload(size: size, name: uniqueName("fast")),
                limits: .unlimited
            )
            let (count, isInOrder, error) = try await Self.read(response.body, pause: .zero, perPiece: .zero)
            #expect(error == nil)
            #expect(count == size)
            #expect(isInOrder)
            print("fast reader (\(transport)): buffer high-water mark \(response.body.bufferHighWaterMark ?? -1) bytes")
        }
    }
}
