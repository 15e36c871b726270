import CoreAPI

/// Progress values collected from the delegate queue.
final class ProgressLog: Sendable {
    private let storage = LockedList<TransferProgress>()

    func append(_ value: TransferProgress) {
        storage.append(value)
    }

    var values: [TransferProgress] { storage.values }
}
