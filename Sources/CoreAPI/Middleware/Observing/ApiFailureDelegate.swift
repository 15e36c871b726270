/// Told about every failure an ``ObserverMiddleware`` sees, for app-wide handling such as signing out
/// on `401` or showing an offline banner.
public protocol ApiFailureDelegate: AnyObject, Sendable {
    /// A call of `session` failed.
    func apiSession(_ session: ApiSession, didFail failure: ApiFailure)
}
