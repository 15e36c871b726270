public import Foundation

extension WebSocket {
    /// One WebSocket message: text or binary, whole (the engine joins the frames of a fragmented message).
    public enum Message: Sendable, Hashable {
        /// A text message.
        case text(String)
        /// A binary message.
        case binary(Data)

        /// A text message holding `value` as JSON.
        /// - Parameters:
        ///   - value: The value to send.
        ///   - encoder: The encoder, with the key and date strategies the peer expects; a plain one by default.
        /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/encoding(_:)`` when
        ///   the value cannot be encoded.
        public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) throws -> Self {
            do {
                return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
            } catch {
                throw ApiError.invalidRequest(.encoding(String(describing: error)))
            }
        }

        /// The message's bytes: the UTF-8 of a text message, the data of a binary one.
        public var data: Data {
            switch self {
            case .text(let text): Data(text.utf8)
            case .binary(let data): data
            }
        }

        /// The size of the message's payload in bytes.
        public var size: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .binary(let data): data.count
            }
        }

        /// Decodes the message, text or binary, as JSON.
        /// - Parameters:
        ///   - type: The type to decode.
        ///   - decoder: The decoder, with the key and date strategies the peer uses; a plain one by default.
        /// - Throws: ``ApiError/mapping(_:)`` naming the type, with the decoding error as its cause.
        public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
            do {
                return try decoder.decode(type, from: data)
            } catch {
                throw ApiError.mapping(.init(typeName: String(describing: type), cause: error))
            }
        }
    }
}
