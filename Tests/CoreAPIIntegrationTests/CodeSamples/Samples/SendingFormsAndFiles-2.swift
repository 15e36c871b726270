// SendingFormsAndFiles.md, sample 2.
import CoreAPI
import Foundation

struct Booking: Encodable, CustomDateEncoding {
    static var dateEncoding: DateEncodingStrategy { .millisecondsSince1970 }
    let room: Int
    let from: Date
    let to: Date
}
