// Charset.swift, sample 1: expressions and their values, in the body of a `@Playground` function.
import CoreAPI
import CoreAPIText
import Foundation

@Playground private func sample(body: Data) {
    let charset = Charset(ianaName: "cp1251")  // Charset.windows1251
    charset?.decode(Data([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]))  // "Привет"
    Charset.decode(body, ianaName: nil)  // decoded as UTF-8
}
