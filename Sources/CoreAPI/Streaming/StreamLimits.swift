/// Which of a method's limits apply to a response read as a stream.
public enum StreamLimits: Sendable, Hashable {
    /// The method's (else the session policy's) maximum response size counts every byte of the stream,
    /// and its deadline ends the whole stream: for a finite body such as a feed of records.
    case method
    /// No size limit and no deadline, for a stream that runs as long as the server sends (server-sent
    /// events, a live feed); the idle timeout still ends a stream on which nothing arrives.
    case unlimited
}
