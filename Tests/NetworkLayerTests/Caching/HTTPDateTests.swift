import Foundation
import Testing
@testable import NetworkLayer

@Suite("HTTP-date parsing")
struct HTTPDateTests {
    /// RFC 9110 §5.6.7's example instant in its three formats.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func allThreeFormatsGiveTheSameInstant(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func leapDayAndLateDatesAreExact() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    @Test func agreesWithTheFormattedDate() {
        let date = Date(timeIntervalSince1970: 1_700_000_123)
        #expect(HTTPDate.parse(httpDate(date)) == date)
    }

    @Test(arguments: [
        "0", "", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 2024 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", String(repeating: "Sun, ", count: 40),
    ])
    func invalidDatesAreNil(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
