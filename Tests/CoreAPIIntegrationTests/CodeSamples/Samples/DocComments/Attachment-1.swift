// Attachment.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample() -> [Attachment] {
    let avatar = Attachment(fileURL: URL(fileURLWithPath: "/tmp/me.png"))  // image/png, "me.png"
    let notes = Attachment(data: Data("hello".utf8), filename: "notes.txt")  // text/plain
    return [avatar, notes]
}
