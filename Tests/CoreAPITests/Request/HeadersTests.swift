import CoreAPI
import Testing

@Suite struct HeadersTests {
    private func pairs(_ headers: Headers) -> [[String]] {
        headers.fields.map { [$0.name, $0.value] }
    }

    @Test func dictionaryInitOrdersFieldsByName() {
        let headers = Headers(["X-B": "2", "Accept": "1", "Content-Type": "3", "X-A": "4", "Authorization": "5"])
        #expect(headers.fields.map(\.name) == ["Accept", "Authorization", "Content-Type", "X-A", "X-B"])
        #expect(headers["X-B"] == "2")
        #expect(headers.count == 5)
    }

    @Test func literalInitKeepsOrderAndRepeatedNames() {
        let headers: Headers = ["X-Z": "1", "Accept": "a", "x-z": "2", "B": "b"]
        #expect(pairs(headers) == [["X-Z", "1"], ["Accept", "a"], ["x-z", "2"], ["B", "b"]])
        #expect(headers.count == 4)
        #expect(headers.values(for: "X-Z") == ["1", "2"])
    }

    @Test func fieldsInitKeepsOrderAndRepeatedNames() {
        let headers = Headers([
            .init(name: "B", value: "1"), .init(name: "A", value: "2"), .init(name: "B", value: "3"),
        ])
        #expect(pairs(headers) == [["B", "1"], ["A", "2"], ["B", "3"]])
    }

    @Test func emptyHeaders() {
        let headers = Headers()
        #expect(headers.isEmpty)
        #expect(headers.count == 0)
        #expect(headers["Accept"] == nil)
        #expect(!Headers(["A": "1"]).isEmpty)
    }

    @Test(arguments: ["Content-Type", "content-type", "CONTENT-TYPE", "cOnTeNt-TyPe"])
    func lookupIgnoresASCIICase(name: String) {
        let headers: Headers = ["Content-Type": "application/json", "Accept": "text/plain"]
        #expect(headers[name] == "application/json")
        #expect(headers.contains(name))
        #expect(headers.values(for: name) == ["application/json"])
    }

    @Test func lookupDoesNotMatchOtherNames() {
        // `[` and `{`, `@` and `` ` `` differ only in bit 0x20 but are not letters.
        let headers: Headers = ["X-[": "1", "X-@": "2", "Content-Type": "3"]
        #expect(headers["X-{"] == nil)
        #expect(headers["X-`"] == nil)
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Types"] == nil)
        #expect(!headers.contains("Accept"))
        #expect(headers.values(for: "Accept").isEmpty)
    }

    @Test func addKeepsEveryValueAndSubscriptJoinsThem() {
        var headers = Headers()
        headers.add("gzip", for: "Accept-Encoding")
        headers.add("text/html", for: "Accept")
        headers.add("br", for: "accept-encoding")
        #expect(headers["Accept-Encoding"] == "gzip, br")
        #expect(headers.values(for: "ACCEPT-ENCODING") == ["gzip", "br"])
        #expect(headers.count == 3)
        #expect(pairs(headers) == [["Accept-Encoding", "gzip"], ["Accept", "text/html"], ["accept-encoding", "br"]])
    }

    @Test func setReplacesEveryValueKeepingThePositionOfTheFirst() {
        var headers: Headers = ["A": "1", "B": "x", "a": "2", "C": "3", "A": "4"]
        headers.set("9", for: "A")
        #expect(pairs(headers) == [["A", "9"], ["B", "x"], ["C", "3"]])
    }

    @Test func setAppendsAnAbsentName() {
        var headers: Headers = ["A": "1"]
        headers.set("2", for: "B")
        #expect(pairs(headers) == [["A", "1"], ["B", "2"]])
    }

    @Test func subscriptSetReplacesAndNilRemoves() {
        var headers: Headers = ["Accept": "a", "X": "1", "accept": "b"]
        headers["ACCEPT"] = "c"
        #expect(headers.values(for: "accept") == ["c"])
        #expect(headers.fields.map(\.name).first?.lowercased() == "accept")
        #expect(headers.count == 2)
        headers["accept"] = nil
        #expect(pairs(headers) == [["X", "1"]])
    }

    @Test func removeDeletesEveryValueOfTheNameOnly() {
        var headers: Headers = ["A": "1", "Cookie": "c1", "B": "2", "cookie": "c2", "C": "3"]
        headers.remove("COOKIE")
        #expect(pairs(headers) == [["A", "1"], ["B", "2"], ["C", "3"]])
        headers.remove("Missing")
        #expect(headers.count == 3)
    }

    @Test func mergeLetsTheLaterValueWinIgnoringCase() {
        var headers: Headers = ["Accept": "json", "Authorization": "old", "X-Trace": "1", "X-Multi": "a"]
        let other: Headers = ["authorization": "new", "X-New": "y", "x-multi": "b", "X-MULTI": "c"]
        headers.merge(other)
        #expect(headers.values(for: "Authorization") == ["new"])
        #expect(headers.values(for: "X-Multi") == ["b", "c"])
        #expect(headers["X-New"] == "y")
        #expect(headers.count == 6)
        // Names that are not merged keep their order, ahead of the merged ones.
        let untouched = headers.fields.map(\.name).filter { ["accept", "x-trace"].contains($0.lowercased()) }
        #expect(untouched == ["Accept", "X-Trace"])
        #expect(Array(pairs(headers).prefix(2)) == [["Accept", "json"], ["X-Trace", "1"]])
    }

    @Test func mergeWithEmptySides() {
        let some: Headers = ["A": "1", "B": "2"]
        var empty = Headers()
        empty.merge(some)
        #expect(empty == some)
        var unchanged = some
        unchanged.merge(Headers())
        #expect(unchanged == some)
    }

    @Test func mergingLeavesTheReceiverUnchanged() {
        let base: Headers = ["A": "1", "B": "2"]
        let merged = base.merging(["a": "3"])
        #expect(pairs(base) == [["A", "1"], ["B", "2"]])
        #expect(merged.values(for: "A") == ["3"])
        #expect(merged["B"] == "2")
        #expect(merged.count == 2)
    }

    @Test func sequenceIteratesFieldsInOrder() {
        let headers: Headers = ["B": "1", "A": "2"]
        #expect(headers.map(\.name) == ["B", "A"])
    }

    @Test(arguments: [
        "bad\r", "bad\n", "ba\0d", "SECRET-TOKEN\r\n", "\r\nX-Injected: 1", "del\u{7F}", "bell\u{07}", "esc\u{1B}",
    ])
    func validateRejectsControlCharactersInValues(value: String) {
        let headers: Headers = ["Accept": "ok", "X-Value": value]
        #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "X-Value"))) {
            try headers.validate()
        }
    }

    @Test(arguments: ["", "X Y", "X:Y", "X-Naïve", "Ü", "X\r\nY", "X\tY", "(X)", "X/Y", "X@Y"])
    func validateRejectsInvalidNames(name: String) {
        let headers = Headers([.init(name: "Accept", value: "ok"), .init(name: name, value: "v")])
        #expect(throws: ApiError.invalidRequest(.invalidHeader(name: name))) {
            try headers.validate()
        }
    }

    @Test(arguments: ["a\tb", "", "café", "text/html; q=0.9, */*", "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"])
    func validateAcceptsValidValues(value: String) throws {
        let headers: Headers = ["X-Value": value, "Accept-Encoding": "gzip", "x!#$%&'*+-.^_`|~9": "1"]
        try headers.validate()
    }

    @Test func validateReportsTheFirstInvalidField() {
        let headers: Headers = ["Good": "ok", "Bad1": "a\nb", "Bad 2": "c"]
        #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "Bad1"))) {
            try headers.validate()
        }
    }

    @Test func validationErrorNeverContainsTheValue() throws {
        let headers: Headers = ["Authorization": "SECRET-TOKEN\r\n"]
        let error = try #require(throws: ApiError.self) { try headers.validate() }
        #expect(error == .invalidRequest(.invalidHeader(name: "Authorization")))
        for text in [error.description, String(describing: error), String(reflecting: error), "\(error)"] {
            #expect(!text.contains("SECRET-TOKEN"))
            #expect(text.contains("Authorization"))
        }
        #expect(error.errorDescription?.contains("SECRET-TOKEN") == false)
    }

    @Test(arguments: [
        "Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "proxy-authorization",
        "Cookie", "COOKIE", "Set-Cookie", "set-cookie",
    ])
    func redactedDescriptionHidesSecretValues(name: String) {
        let headers = Headers([
            .init(name: "Accept", value: "application/json"), .init(name: name, value: "hunter2"),
            .init(name: "X-Request-ID", value: "42"),
        ])
        #expect(headers.redactedDescription == "Accept: application/json\n\(name): <redacted>\nX-Request-ID: 42")
        #expect(Headers.isSecret(name))
    }

    @Test(arguments: ["Accept", "X-Authorization", "Cookies", "Set-Cookie2", "Authorization-Info"])
    func redactedDescriptionKeepsOtherValues(name: String) {
        let headers = Headers([.init(name: name, value: "visible")])
        #expect(headers.redactedDescription == "\(name): visible")
        #expect(!Headers.isSecret(name))
    }
}

@Suite struct HeadersRenderingTests {
    @Test func printingDumpingAndInterpolatingNeverRevealSecrets() {
        let headers: Headers = [
            "Authorization": "Bearer SECRET-TOKEN", "cookie": "id=SECRET-COOKIE", "Accept": "application/json",
        ]
        var dumped = ""
        dump(headers, to: &dumped)
        for text in [String(describing: headers), String(reflecting: headers), "\(headers)", dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
            #expect(text.contains("application/json"), "\(text)")
            #expect(text.contains("<redacted>"), "\(text)")
        }
    }

    @Test func mergeComparesNamesByASCIICaseOnly() {
        let base: Headers = ["k": "v0", "X": "x"]
        let other = Headers([.init(name: "\u{212A}", value: "a"), .init(name: "k", value: "b")])
        #expect(base.merging(other).values(for: "k") == ["b"])
    }
}
