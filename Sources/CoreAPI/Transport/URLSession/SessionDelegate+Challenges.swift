import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Authentication challenges: TLS answered with the transport's ``TLSTrust`` (Apple platforms), every
/// other challenge cancelled with its response kept, so a `401` ends the call instead of hanging.
extension SessionDelegate {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
            switch challenge.protectionSpace.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust:
                answerServerTrust(challenge, of: task, completionHandler: completionHandler)
                return
            case NSURLAuthenticationMethodClientCertificate:
                let credential = try? trust.clientCredential()
                completionHandler(credential == nil ? .performDefaultHandling : .useCredential, credential)
                return
            default:
                break
            }
        #endif
        let response =
            (challenge.failureResponse as? HTTPURLResponse).map(ResponseHead.init)
            ?? task.originalRequest?.url.map { ResponseHead(status: 401, url: $0) }
        // The 401 is the answer: the call ends with it now, and the challenge is cancelled afterwards.
        let state = takeOut(task)
        if let response {
            state?.completion(TaskOutcome(response: response, data: Data()))
        } else {
            state?.completion(TaskOutcome(error: .transport(.init(kind: .badResponse))))
        }
        engineQueue.async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }

    #if canImport(FoundationNetworking)
        /// Answers connection-level challenges with the default handling: Linux waits forever for a
        /// challenge no session-level delegate answers. On Apple platforms the delegate leaves this out,
        /// so URLSession hands server-trust and client-certificate challenges to the task-level method,
        /// which knows the task a refused server ends.
        func urlSession(
            _ session: URLSession,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            completionHandler(.performDefaultHandling, nil)
        }
    #else
        /// Judges the server's chain with ``trust``: a refused server ends the task at once with
        /// ``ApiError/TransportFailure/Kind/tls`` (URLSession would report a refused challenge as
        /// cancelled).
        private func answerServerTrust(
            _ challenge: URLAuthenticationChallenge,
            of task: URLSessionTask,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard trust.server != .system else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            if let serverTrust = challenge.protectionSpace.serverTrust,
                trust.accepts(serverTrust, host: challenge.protectionSpace.host)
            {
                completionHandler(.useCredential, URLCredential(trust: serverTrust))
                return
            }
            takeOut(task)?.completion(TaskOutcome(error: .transport(.init(kind: .tls))))
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    #endif
}
