public import CoreAPI
public import Foundation

/// The records of a JSON Lines (`application/jsonl`, newline-delimited JSON) or JSON text sequence
/// (RFC 7464, `application/json-seq`) body, each decoded as soon as it has arrived.
///
/// ```swift
/// let response = try await session.stream(ExportOrders())
/// for try await order in response.jsonLines(of: Order.self) {
///     process(order)
/// }
/// ```
///
/// Blank records are skipped. A record that does not decode throws ``RecordFailure`` with its number
/// (the first record is 1, and blank lines count, so it is the line number of a JSON Lines body) and the
/// decoding error, and the sequence ends there.
public struct JSONLines<Element: Decodable & Sendable>: AsyncSequence, Sendable {
    private let body: StreamedResponse.Body
    private let decoder: JSONDecoder
    private let separator: Separator

    /// The records of `body`.
    /// - Parameters:
    ///   - body: A streamed body.
    ///   - decoder: The decoder for each record.
    ///   - separator: What ends a record.
    public init(
        _ body: StreamedResponse.Body,
        decoder: JSONDecoder = JSONDecoder(),
        separator: Separator = .newline
    ) {
        self.body = body
        self.decoder = decoder
        self.separator = separator
    }

    /// Reads the records in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pieces: StreamedResponse.Body.AsyncIterator
        let decoder: JSONDecoder
        let separator: Separator
        var pending: [UInt8] = []
        var ready: [(number: Int, bytes: [UInt8])] = []
        var number = 0
        var hasSeparator = false
        var isFinished = false

        /// The next record, or `nil` at the end of the body.
        /// - Throws: ``JSONLines/RecordFailure`` for a record that does not decode; `ApiError` when the exchange
        ///   failed before the body ended.
        public mutating func next() async throws -> Element? {
            while true {
                while !ready.isEmpty {
                    let record = ready.removeFirst()
                    if let value = try decode(record) {
                        return value
                    }
                }
                if isFinished { return nil }
                guard let piece = try await pieces.next() else {
                    isFinished = true
                    if !pending.isEmpty {
                        number += 1
                        ready.append((number, pending))
                        pending = []
                    }
                    continue
                }
                for byte in piece {
                    if byte == separator.byte {
                        if separator == .recordSeparator, !hasSeparator {
                            // RFC 7464: a separator starts each text, so the first one ends nothing.
                            hasSeparator = true
                            pending.removeAll(keepingCapacity: true)
                            continue
                        }
                        number += 1
                        ready.append((number, pending))
                        pending.removeAll(keepingCapacity: true)
                    } else {
                        pending.append(byte)
                    }
                }
            }
        }

        /// The record's value, or `nil` for a blank one.
        private func decode(_ record: (number: Int, bytes: [UInt8])) throws -> Element? {
            guard record.bytes.contains(where: { !Self.isWhitespace($0) }) else { return nil }
            do {
                return try decoder.decode(Element.self, from: Data(record.bytes))
            } catch {
                throw RecordFailure(
                    record: record.number,
                    text: String(decoding: record.bytes.prefix(200), as: UTF8.self),
                    underlying: error
                )
            }
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pieces: body.makeAsyncIterator(), decoder: decoder, separator: separator)
    }
}

extension StreamedResponse {
    /// The body's JSON Lines records, decoded as `type` with `decoder`.
    public func jsonLines<Element: Decodable & Sendable>(
        of type: Element.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> JSONLines<Element> {
        JSONLines(body, decoder: decoder, separator: .newline)
    }

    /// The body's JSON text sequence (RFC 7464) records, decoded as `type` with `decoder`.
    public func jsonSequence<Element: Decodable & Sendable>(
        of type: Element.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> JSONLines<Element> {
        JSONLines(body, decoder: decoder, separator: .recordSeparator)
    }
}
