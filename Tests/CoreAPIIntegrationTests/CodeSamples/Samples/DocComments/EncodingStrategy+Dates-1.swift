// EncodingStrategy+Dates.swift, sample 1.
import CoreAPI
import Foundation

private enum Sample {
    struct Booking: ApiMethod, EncodingStrategy.CustomDate {
        typealias Response = EmptyResponse
        static var dateEncoding: EncodingStrategy.Dates { .millisecondsSince1970 }
        let room: Int
        let from: Date  // sent as milliseconds, whatever the encoder's strategy
        var hostProviderKey: String { "api" }
        var path: String { "/bookings" }
    }
}
