import Foundation

/// Hears about every element a ``LossyArray`` drops, wherever the array sits in a model.
///
/// The caller sees what was dropped in ``LossyArray/dropped``; an observer sees it for every call
/// without each caller looking, for logs or metrics. Put it in the `userInfo` of the decoder the
/// response types use:
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.userInfo[LossyArrayObserver.userInfoKey] = LossyArrayObserver { report in
///     print("dropped \(report.dropped.count) of \(report.count) at \(report.path)")
/// }
/// ```
///
/// It is called once per array that dropped anything, on the thread that decodes, while the response
/// is being decoded: keep it short. A decode that is tried and then given up (the first shape of an
/// `OrFallback`, an element an outer lossy array drops) reports what it dropped all the same.
public struct LossyArrayObserver: Sendable {
    /// What one array dropped.
    public struct Report: Sendable, CustomStringConvertible {
        /// Where the array is in the body, as coding keys from its top (empty for a body that is the
        /// array).
        public let codingPath: [any CodingKey]
        /// The element type the array decodes.
        public let elementType: any Any.Type
        /// How many elements the array had as sent, dropped ones included.
        public let count: Int
        /// The elements that did not decode, in order.
        public let dropped: [LossyArrayObserver.DroppedElement]

        /// The coding path as dotted text, such as `data.items`, or `.` for the top.
        public var path: String {
            guard !codingPath.isEmpty else { return "." }
            return codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }

        /// The path, the counts and each reason.
        public var description: String {
            "dropped \(dropped.count) of \(count) \(elementType) at \(path): "
                + dropped.map(\.description).joined(separator: "; ")
        }
    }

    /// The `userInfo` key of a decoder the observer is read from.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "CoreAPIJSON.LossyArrayObserver")!

    /// Called with each report.
    public let handler: @Sendable (Report) -> Void

    /// An observer that calls `handler` with each report.
    public init(_ handler: @escaping @Sendable (Report) -> Void) {
        self.handler = handler
    }
}
