#if AsyncHTTPClient
    import CoreAPI

    /// Hands every request to `base`, noting the task each exchange runs in.
    struct TaskRecordingTransport: Transport {
        let base: any Transport
        let tasks = LockedValue<[Int?]>([])

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            let task = withUnsafeCurrentTask { $0.map { $0.hashValue } }
            tasks.withLock { $0.append(task) }
            return try await base.send(request, options: options)
        }
    }
#endif
