extension ApiSession {
    /// A call in flight, as ``ApiSession/callsInFlight`` lists it.
    public struct CallInfo: Sendable {
        /// The method being performed.
        public let method: any ApiMethod
        /// The method's ``CallOptions/callKey``.
        public let key: CallKey?

        /// The method's type.
        public var methodType: any ApiMethod.Type { type(of: method) }

        /// The method's type name, as logs and ``ObserverMiddleware/Failure`` show it.
        public var methodName: String { String(describing: methodType) }

        /// Whether the call performs a method of type `type`.
        public func performs<M: ApiMethod>(_ type: M.Type) -> Bool {
            methodType == type
        }
    }
}
