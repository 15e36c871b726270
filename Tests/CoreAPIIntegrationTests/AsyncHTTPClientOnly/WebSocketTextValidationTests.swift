#if AsyncHTTPClient
    import NIOCore
    import Testing

    @testable import CoreAPIAsyncHTTPClient

    /// Which payloads the SwiftNIO WebSocket engine takes as text (RFC 6455 §8.1: a text message or a close
    /// reason that is not UTF-8 fails the connection with 1007 or 1002, never repaired).
    @Suite struct WebSocketTextValidationTests {
        static let cases: [(bytes: [UInt8], text: String?)] = [
            ([], ""),
            (Array("hello".utf8), "hello"),
            (Array("héllo €𝄞".utf8), "héllo €𝄞"),
            ([0xC0, 0x80], nil),  // overlong NUL
            ([0x80], nil),  // a lone continuation byte
            ([0xE2, 0x82], nil),  // a sequence cut short
            ([0xED, 0xA0, 0x80], nil),  // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], nil),  // above U+10FFFF
            ([0x61, 0xFF, 0x62], nil),  // a byte UTF-8 never uses
            (Array("\u{FFFD}".utf8), "\u{FFFD}"),  // the replacement character itself is text
        ]

        @Test(arguments: cases)
        func textIsKeptOnlyWhenWellFormed(bytes: [UInt8], text: String?) {
            #expect(WebSocketFrameHandler.validUTF8(ByteBuffer(bytes: bytes).readableBytesView) == text)
        }
    }
#endif
