import Foundation

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A task of the URLSession under test, held weakly to see it released.
struct WeakTask {
    weak var task: URLSessionTask?
}

/// A session and its URLSession machinery, held weakly to see them released.
struct WeakReferences {
    weak var session: ApiSession?
    weak var delegate: SessionDelegate?
    weak var urlSession: URLSession?
    var tasks: [WeakTask] = []

    var allReleased: Bool {
        session == nil && delegate == nil && urlSession == nil && tasks.allSatisfy { $0.task == nil }
    }
}
