public import Foundation

extension ResponseCollector {
    /// One piece of a response body, taken by ``ResponseCollector/take(_:)``: whether the engine reads on,
    /// and the caller's code the piece still owes — the body handler's call and the progress report — which
    /// ``deliver()`` runs outside the engine's locks.
    public struct Piece: Sendable {
        /// Whether the engine reads on (``ResponseCollector/Step/more``) or stops
        /// (``ResponseCollector/Step/complete``, a redirect's kept bytes are in).
        public let step: Step
        private let data: Data
        private let handler: TransportOptions.BodyHandler?
        private let progress: TransferProgress?
        private let report: (@Sendable (TransferProgress) -> Void)?

        init(
            step: Step,
            data: Data,
            handler: TransportOptions.BodyHandler?,
            progress: TransferProgress?,
            report: (@Sendable (TransferProgress) -> Void)?
        ) {
            self.step = step
            self.data = data
            self.handler = handler
            self.progress = progress
            self.report = report
        }

        /// Hands the piece to the body handler when the body streams, then reports the download progress.
        ///
        /// Both are the caller's code: call this after releasing any lock the engine held for
        /// ``ResponseCollector/take(_:)``, one piece at a time and in order.
        /// - Throws: What the body handler threw, as an ``ApiError``: end the exchange with it and read no
        ///   further.
        public func deliver() throws(ApiError) {
            if let handler {
                do {
                    try handler.receive(data)
                } catch {
                    throw ApiError(error)
                }
            }
            if let progress, let report {
                report(progress)
            }
        }
    }

    /// Takes the next decoded piece of the body and says what to do: for a collected body it is kept
    /// under the size limit (see ``append(_:)-(Data)``); for a body that goes to the options'
    /// ``TransportOptions/BodyHandler`` it is counted and left for ``Piece/deliver()`` to hand on.
    ///
    /// An engine that holds a lock around its collector takes the piece under it and delivers it after:
    ///
    /// ```swift
    /// let piece = try lock.withLock { try collector.take(data) }
    /// try piece.deliver()
    /// return piece.step == .more
    /// ```
    ///
    /// An engine that waits for a stream's reader (``TransportOptions/BodyHandler/waitForRoom(for:)``)
    /// awaits it before delivering.
    /// - Parameter piece: The next decoded bytes.
    /// - Returns: The piece, with whether to read on and what it still owes the caller.
    /// - Throws: ``ApiError/responseTooLarge(limit:)`` when a collected body passes the size limit; what
    ///   arrived is dropped.
    public mutating func take(_ piece: Data) throws(ApiError) -> Piece {
        let step: Step
        if streamsBody {
            streamed(piece.count)
            step = .more
        } else {
            step = try append(piece)
        }
        return Piece(
            step: step,
            data: streamsBody ? piece : Data(),
            handler: streamsBody ? bodyHandler : nil,
            progress: progressReport == nil ? nil : progress,
            report: progressReport
        )
    }

    /// The error for an exchange whose engine reports `cause` before the response was complete.
    ///
    /// An ``ApiError`` is itself. Any other fault after the head is
    /// ``ApiError/TransportFailure/Kind/connectionLost`` — the rest of the body is lost, and a retry may
    /// repeat an idempotent request — and before it is a transport failure of `kindBeforeHead`, with
    /// `cause` kept for diagnostics in both.
    /// - Parameters:
    ///   - cause: What the engine reported.
    ///   - kindBeforeHead: The kind of a fault before any head arrived, when the engine knows it (a refused
    ///     connection is ``ApiError/TransportFailure/Kind/cannotConnect``).
    /// - Returns: The error to end the exchange with.
    public func failure(
        endedBy cause: any Error,
        beforeHead kindBeforeHead: ApiError.TransportFailure.Kind = .other
    ) -> ApiError {
        if let error = cause as? ApiError {
            return error
        }
        let kind = hasHead ? ApiError.TransportFailure.Kind.connectionLost : kindBeforeHead
        return .transport(.init(kind: kind, cause: cause))
    }
}
