import Foundation
import Testing
@testable import NetworkLayer

/// The package's one HTTP-date parser (RFC 9110 §5.6.7), used by the cache and by `Retry-After`.
@Suite("HTTP-date parsing")
struct HTTPDateTests {
    /// RFC 9110 §5.6.7's example instant in its three formats.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func allThreeFormatsGiveTheSameInstant(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    /// Valid dates and the instant each names (seconds since 1970).
    @Test(arguments: [
        ("Thu, 29 Feb 2024 00:00:00 GMT", 1_709_164_800),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Wednesday, 09-Nov-94 08:49:37 GMT", 784_370_977),
        ("Thu Feb 29 00:00:00 2024", 1_709_164_800),
        ("Sun Nov 16 08:49:37 1994", 784_975_777),
        ("Sun Nov 06 08:49:37 1994", 784_111_777),  // asctime's day may be 2DIGIT
        ("Sat, 31 Dec 2016 23:59:60 GMT", 1_483_228_799),  // a leap second, read as :59
        // Spaces and tabs around a field value are not part of it (RFC 9110 §5.5).
        (" Sun, 06 Nov 1994 08:49:37 GMT\t", 784_111_777),
    ])
    func validDates(text: String, seconds: Int) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test func agreesWithTheFormattedDate() {
        let date = Date(timeIntervalSince1970: 1_700_000_123)
        #expect(HTTPDate.parse(httpDate(date)) == date)
    }

    /// Everything the grammar does not produce is invalid.
    @Test(arguments: [
        "0", "", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 2024 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", String(repeating: "Sun, ", count: 40),
        // Extra spaces inside (RFC 9110 has exactly one SP at each of these places).
        "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06 Nov  1994 08:49:37 GMT",
        "Sun, 06 Nov 1994  08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37  GMT", "Sunday,  06-Nov-94 08:49:37 GMT",
        "Sun  Nov  6 08:49:37 1994", "Sun Nov  6  08:49:37 1994", "Sun Nov   6 08:49:37 1994",
        // A missing space or comma, a tab for a space.
        "Sun,06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37GMT",
        "Sun,\t06 Nov 1994 08:49:37 GMT",
        // One digit where the grammar has two, or a sign.
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:9:37 GMT",
        "Sun Nov 6 08:49:37 1994", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 +0000",
        // Letter case, names and forms mixed up.
        "sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 gmt",
        "SUN, 06 NOV 1994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 1994 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 November 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT junk", "Sun, 06 Nov 1994 08:49:37.5 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT", "Sun, 06 Nov 1994 08:60:37 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
    ])
    func invalidDatesAreNil(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    /// RFC 850's two-digit year: in the present century, unless that is more than 50 years
    /// ahead, then the most recent past year with those digits.
    @Test func rfc850YearsArePlacedAroundNow() {
        let in2026 = Date(timeIntervalSince1970: 1_780_000_000)  // June 2026
        #expect(HTTPDate.parse("Tuesday, 06-Nov-76 08:49:37 GMT", now: in2026) == november6(1976))
        #expect(HTTPDate.parse("Monday, 06-Nov-69 08:49:37 GMT", now: in2026) == november6(2069))
        #expect(HTTPDate.parse("Friday, 06-Nov-26 08:49:37 GMT", now: in2026) == november6(2026))
        let in2090 = Date(timeIntervalSince1970: 3_800_000_000)  // May 2090
        #expect(HTTPDate.parse("Wednesday, 06-Nov-30 08:49:37 GMT", now: in2090) == november6(2030))
    }

    private func november6(_ year: Int) -> Date? {
        HTTPDate.parse("Sun, 06 Nov \(year) 08:49:37 GMT")
    }
}
