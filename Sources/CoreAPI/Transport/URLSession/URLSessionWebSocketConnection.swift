#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// A WebSocket connection on a `URLSessionWebSocketTask`: the engine of ``URLSessionTransport`` on
/// Apple platforms (FoundationNetworking's task cannot connect on Linux, where the transport refuses
/// at once). URLSession joins fragments, answers pings and enforces the size limit itself.
///
/// A close code that may not be sent (1005, 1006, 1015) goes out as
/// ``WebSocket/CloseCode/normalClosure``. Codes the server sends arrive as they are.
///
/// The closing handshake is URLSession's: ``close(_:)`` waits until the task has ended — URLSession ends
/// it once the server's close frame has come — for ``WebSocket/Options/closeTimeout`` at most, then
/// cancels it; the closure is the task's `closeCode` and `closeReason`, which hold the server's frame.
/// ``abort(_:)`` cancels the task right after its close frame, so nothing of the server's is read after it.
struct URLSessionWebSocketConnection: WebSocket.Connection {
    let task: URLSessionWebSocketTask
    let maximumMessageSize: Int
    /// How long ``close(_:)`` waits for the task to end.
    let closeTimeout: Duration
    /// Whether ``abort(_:)`` cancelled the task: no close frame of the server's can come since, whatever
    /// the task's `closeCode` holds.
    let aborted = LockedValue(false)

    func send(_ message: WebSocket.Message) async throws {
        guard message.size <= maximumMessageSize else {
            throw WebSocket.Failure.messageTooLarge(limit: maximumMessageSize)
        }
        do {
            switch message {
            case .text(let text): try await task.send(.string(text))
            case .binary(let data): try await task.send(.data(data))
            }
        } catch {
            throw closure.map(WebSocket.Failure.closed) ?? WebSocket.Failure.connectionLost
        }
    }

    func receive() async throws -> WebSocket.Event {
        let task = self.task
        do {
            let message = try await withTaskCancellationHandler {
                try await task.receive()
            } onCancel: {
                task.cancel(with: .goingAway, reason: nil)
            }
            switch message {
            case .string(let text): return .message(.text(text))
            case .data(let data): return .message(.binary(data))
            @unknown default: throw WebSocket.Failure.protocolError(reason: "a message of an unknown kind")
            }
        } catch let error as WebSocket.Failure {
            throw error
        } catch {
            if let closure { return .closed(closure) }
            if (error as NSError).domain == NSPOSIXErrorDomain, (error as NSError).code == Int(EMSGSIZE) {
                throw WebSocket.Failure.messageTooLarge(limit: maximumMessageSize)
            }
            throw WebSocket.Failure.connectionLost
        }
    }

    func ping() async throws {
        let task = self.task
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.sendPing { error in
                if error == nil {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: WebSocket.Failure.connectionLost)
                }
            }
        }
    }

    func close(_ closure: WebSocket.Closure) async {
        let sendable = closure.code.isSendable ? closure.code : .normalClosure
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(sendable.rawValue)) ?? .normalClosure
        task.cancel(with: code, reason: closure.reason.isEmpty ? nil : Data(closure.reason.utf8))
        // URLSession reports the end of the closing handshake only as the task's state.
        let deadline = ContinuousClock.now + closeTimeout
        while task.state != .completed, ContinuousClock.now < deadline {
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                break  // the caller was cancelled: the task is cancelled below
            }
        }
        if task.state != .completed { task.cancel() }
    }

    func abort(_ closure: WebSocket.Closure) {
        let sendable = closure.code.isSendable ? closure.code : .normalClosure
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(sendable.rawValue)) ?? .normalClosure
        let first = aborted.withLock { aborted in
            guard !aborted, task.state != .completed else { return false }
            aborted = true
            return true
        }
        guard first else { return }
        // The close frame goes out, and the task ends without waiting for the server's.
        task.cancel(with: code, reason: closure.reason.isEmpty ? nil : Data(closure.reason.utf8))
        task.cancel()
    }

    /// How the server closed the connection, once it did.
    private var closure: WebSocket.Closure? {
        if aborted.withLock({ $0 }) { return nil }
        let code = task.closeCode.rawValue
        guard code != URLSessionWebSocketTask.CloseCode.invalid.rawValue else { return nil }
        return WebSocket.Closure(
            code: WebSocket.CloseCode(rawValue: UInt16(clamping: code)),
            reason: String(decoding: task.closeReason ?? Data(), as: UTF8.self)
        )
    }
}
