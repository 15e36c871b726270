import Foundation

/// Writes a ``ParameterValue`` tree as compact JSON with sorted keys.
struct JSONWriter {
    let dateEncoding: EncodingStrategy.Dates
    private(set) var bytes: [UInt8] = []

    init(dateEncoding: EncodingStrategy.Dates) {
        self.dateEncoding = dateEncoding
        bytes.reserveCapacity(256)
    }

    mutating func write(_ value: ParameterValue) throws {
        switch value {
        case .null:
            bytes += "null".utf8
        case .string(let text):
            writeString(text)
        case .number(let text):
            bytes += text.utf8
        case .bool(let flag):
            bytes += (flag ? "true" : "false").utf8
        case .date(let date):
            try write(dateEncoding.leaf(for: date))
        case .data(let data):
            writeString(data.base64EncodedString())
        case .attachment(let attachment):
            throw ApiError.invalidRequest(
                .encoding(
                    "attachment \(attachment.filename.debugDescription) can only be sent with MultipartFormDataEncoder"
                )
            )
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let entries):
            bytes.append(UInt8(ascii: "{"))
            let sorted = ParameterValue.sortedByKey(entries)
            for (index, entry) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(entry.key)
                bytes.append(UInt8(ascii: ":"))
                try write(entry.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or
    /// `\u00XX`; everything else, `/` and non-ASCII included, as UTF-8.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let isPlain = { (byte: UInt8) in byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        text.appendUTF8(to: &bytes, keeping: isPlain) { byte, output in
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case 0x0A: output += #"\n"#.utf8
            case 0x0D: output += #"\r"#.utf8
            case 0x09: output += #"\t"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            default:
                output += #"\u00"#.utf8
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
