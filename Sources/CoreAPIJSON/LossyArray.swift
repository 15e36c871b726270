import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An array that keeps the elements that decode and reports the ones that do not.
///
/// One malformed element should not cost a whole list. Use it for a reply that is a list, or for a
/// list inside a model:
///
/// ```swift
/// struct Feed: JSONApiResponse {
///     let title: String
///     let posts: LossyArray<Post>
/// }
///
/// let feed = try await session.perform(GetFeed())
/// for post in feed.posts { show(post) }
/// if !feed.posts.dropped.isEmpty { report(feed.posts.dropped) }
/// ```
///
/// A body that is not an array at all is still an error; only elements are dropped. A
/// ``LossyArrayObserver`` in the decoder's `userInfo` hears about every array that dropped anything.
public struct LossyArray<Element: Decodable & Sendable>: Sendable, RandomAccessCollection {
    /// The elements that decoded, in order.
    public var elements: [Element]
    /// The elements that did not, in order.
    public var dropped: [LossyArrayObserver.DroppedElement]

    /// An array of `elements` with nothing dropped.
    public init(_ elements: [Element]) {
        self.elements = elements
        self.dropped = []
    }

    /// The index of the first element.
    public var startIndex: Int { elements.startIndex }
    /// The index after the last element.
    public var endIndex: Int { elements.endIndex }

    /// The element at `position` among those that decoded.
    public subscript(position: Int) -> Element { elements[position] }
}

extension LossyArray: Decodable {
    /// Decodes every element that can be, and records why each other one could not.
    /// - Throws: `DecodingError` when the value is not an array.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var dropped: [LossyArrayObserver.DroppedElement] = []
        if let count = container.count { elements.reserveCapacity(count) }
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                dropped.append(LossyArrayObserver.DroppedElement(index: index, error: error))
                // A failed decode does not move past the element; skipping any value does.
                _ = try container.decode(Skipped.self)
            }
        }
        self.elements = elements
        self.dropped = dropped
        if !dropped.isEmpty, let observer = decoder.userInfo[LossyArrayObserver.userInfoKey] as? LossyArrayObserver {
            observer.handler(
                .init(
                    codingPath: decoder.codingPath,
                    elementType: Element.self,
                    count: elements.count + dropped.count,
                    dropped: dropped
                )
            )
        }
    }

    /// Decodes from any value, so decoding it moves past one element.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Encodes the elements that decoded.
    public func encode(to encoder: any Encoder) throws {
        try elements.encode(to: encoder)
    }
}

extension LossyArray: Equatable where Element: Equatable {
    /// Equal when the kept elements and the dropped positions are.
    public static func == (lhs: LossyArray, rhs: LossyArray) -> Bool {
        lhs.elements == rhs.elements && lhs.dropped.map(\.index) == rhs.dropped.map(\.index)
    }
}

extension LossyArray: ExpressibleByArrayLiteral {
    /// An array of `elements` with nothing dropped.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

/// A reply that is a list, decoded element by element.
extension LossyArray: JSONApiResponse {
    /// The element type's decoder when it is a ``JSONApiResponse``; the shared default otherwise.
    public static var decoder: JSONDecoder {
        (Element.self as? any JSONApiResponse.Type)?.decoder ?? JSONDefaults.decoder
    }
}
