/// Floating-point numbers as parameter text, shared by the tree encoder and the date strategies.
enum NumberText {
    /// A finite `Double` as text without a needless `.0`: `1`, `1.5`, `1e+20`.
    static func format<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) -> String {
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}
