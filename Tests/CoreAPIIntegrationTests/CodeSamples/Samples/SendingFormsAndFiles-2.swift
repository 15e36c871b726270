// SendingFormsAndFiles.md, sample 2.
import CoreAPI
import Foundation

struct Booking: Encodable, EncodingStrategy.CustomDate {
    static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
    let room: Int
    let from: Date
    let to: Date
}
