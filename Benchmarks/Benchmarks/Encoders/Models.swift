import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One order line, the element of the model's nested array.
struct OrderLine: Encodable, Sendable {
    /// The stock keeping unit.
    var sku: String
    /// How many.
    var quantity: Int
    /// The unit price.
    var price: Double
}

/// A realistic request model of 30 fields: strings, integers, doubles, booleans, optionals (some `nil`),
/// a date, an array of strings and a nested array of objects.
struct ProfileUpdate: Encodable, Sendable {
    /// The account number.
    var userID: Int
    /// The given name.
    var firstName: String
    /// The family name.
    var lastName: String
    /// The e-mail address.
    var email: String
    /// The phone number, if any.
    var phone: String?
    /// Age in years.
    var age: Int
    /// Height in metres.
    var height: Double
    /// Weight in kilograms.
    var weight: Double
    /// Whether the e-mail address is verified.
    var isVerified: Bool
    /// Whether marketing mail is welcome.
    var acceptsMarketing: Bool
    /// The preferred locale.
    var locale: String
    /// The time zone identifier.
    var timeZone: String
    /// The ISO country code.
    var country: String
    /// The city.
    var city: String
    /// The postal code.
    var postalCode: String
    /// The street.
    var street: String
    /// The house number.
    var houseNumber: Int
    /// The apartment, if any.
    var apartment: String?
    /// Latitude in degrees.
    var latitude: Double
    /// Longitude in degrees.
    var longitude: Double
    /// The average rating.
    var rating: Double
    /// The rank among users.
    var rank: Int
    /// The referral code used at sign-up, if any.
    var referralCode: String?
    /// The nickname, if any.
    var nickname: String?
    /// A short biography.
    var bio: String
    /// The last sign-in.
    var lastLogin: Date
    /// How many sign-ins so far.
    var loginCount: Int
    /// Whether the user administers the site.
    var isAdmin: Bool
    /// Interests.
    var tags: [String]
    /// The lines of the current order.
    var lines: [OrderLine]

    /// A filled-in sample; `apartment` and `nickname` are `nil`.
    static let sample = ProfileUpdate(
        userID: 482_913,
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada.lovelace@example.com",
        phone: "+44 20 7946 0958",
        age: 36,
        height: 1.65,
        weight: 58.5,
        isVerified: true,
        acceptsMarketing: false,
        locale: "en_GB",
        timeZone: "Europe/London",
        country: "GB",
        city: "London",
        postalCode: "W1J 7NT",
        street: "St James's Square",
        houseNumber: 12,
        apartment: nil,
        latitude: 51.507_351,
        longitude: -0.127_758,
        rating: 4.87,
        rank: 17,
        referralCode: "ANALYTICAL-ENGINE",
        nickname: nil,
        bio: "Mathematician & writer; wrote the first published algorithm (1843).",
        lastLogin: Date(timeIntervalSince1970: 1_700_000_000),
        loginCount: 1_204,
        isAdmin: false,
        tags: ["math", "poetry", "engines", "notes"],
        lines: [
            OrderLine(sku: "BRASS-GEAR-01", quantity: 12, price: 3.5),
            OrderLine(sku: "PUNCH-CARD-100", quantity: 3, price: 19.99),
            OrderLine(sku: "LOOM-SHUTTLE", quantity: 1, price: 120.0),
        ]
    )
}

/// One element of the large response array, about 200 bytes of JSON.
struct CatalogItem: JSONApiResponse, Codable {
    /// The item's identifier.
    let id: Int
    /// A UUID string.
    let uuid: String
    /// The item's name.
    let name: String
    /// A short description.
    let summary: String
    /// The price.
    let price: Double
    /// Whether the item is in stock.
    let inStock: Bool
    /// Labels.
    let tags: [String]
    /// The date it was added, as ISO 8601 text.
    let addedAt: String
    /// An optional note.
    let note: String?

    /// `count` items encoded as one JSON array (5000 items are about 1 MB).
    static func jsonArray(count: Int) throws -> Data {
        let items = (0..<count).map { index in
            CatalogItem(
                id: index,
                uuid: UUID().uuidString,
                name: "Item \(index)",
                summary: "A sturdy, well-made catalog item number \(index).",
                price: Double(index % 1000) + 0.99,
                inStock: index.isMultiple(of: 3),
                tags: ["hardware", "brass", index.isMultiple(of: 2) ? "even" : "odd"],
                addedAt: "2024-05-17T10:\(10 + index % 50):00Z",
                note: index.isMultiple(of: 5) ? "limited" : nil
            )
        }
        return try JSONEncoder().encode(items)
    }
}
