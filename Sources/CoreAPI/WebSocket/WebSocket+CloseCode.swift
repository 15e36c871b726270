extension WebSocket {
    /// The status code of a WebSocket close frame (RFC 6455 §7.4): registered codes and the 4000–4999
    /// range an application may use as it likes.
    public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code.
        public var rawValue: UInt16

        /// A close code.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// 1000: the purpose of the connection is fulfilled.
        public static let normalClosure = Self(rawValue: 1000)
        /// 1001: an endpoint is going away, such as a client whose reader was cancelled.
        public static let goingAway = Self(rawValue: 1001)
        /// 1002: a protocol error.
        public static let protocolError = Self(rawValue: 1002)
        /// 1003: a message of a type the endpoint cannot accept.
        public static let unsupportedData = Self(rawValue: 1003)
        /// 1005: no code was received (never sent in a frame).
        public static let noStatusReceived = Self(rawValue: 1005)
        /// 1006: the connection ended without a close frame (never sent in a frame).
        public static let abnormalClosure = Self(rawValue: 1006)
        /// 1007: a message's data did not match its type, such as text that is not UTF-8.
        public static let invalidPayload = Self(rawValue: 1007)
        /// 1008: a message violated the endpoint's policy.
        public static let policyViolation = Self(rawValue: 1008)
        /// 1009: a message was too big to process.
        public static let messageTooBig = Self(rawValue: 1009)
        /// 1011: the server met an unexpected condition.
        public static let internalServerError = Self(rawValue: 1011)
        /// 1012: the server is restarting.
        public static let serviceRestart = Self(rawValue: 1012)
        /// 1013: the server is overloaded; try again later.
        public static let tryAgainLater = Self(rawValue: 1013)

        /// Whether the code may be sent in a close frame: 1000–1003, 1007–1014, or 3000–4999.
        public var isSendable: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014, 3000...4999: true
            default: false
            }
        }

        /// The code as a number.
        public var description: String { String(rawValue) }
    }
}
