import Foundation
import Testing
@testable import NetworkLayer

@Suite("Retry-After")
struct RetryAfterTests {
    @Test func seconds() {
        #expect(RetryAfter(headerValue: "120") == .seconds(120))
        #expect(RetryAfter(headerValue: " 0 ") == .seconds(0))
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func allThreeHTTPDateFormats(value: String) {
        #expect(RetryAfter(headerValue: value) == .date(Date(timeIntervalSince1970: 784_111_777)))
    }

    @Test func aNumberTooLargeForUInt64IsTheCap() {
        #expect(RetryAfter(headerValue: "99999999999999999999999") == .seconds(1_000_000_000))
    }

    /// A malformed value counts as no `Retry-After` at all: a sign, a fraction, and dates with
    /// an extra space, a one-digit day or another zone, which the DateFormatter it used to go
    /// through accepted.
    @Test(arguments: [
        "-1", "1.5", "soon", "", "Sun, 06 Nov 1994", "+5", "5 s", "Sun,  06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994  08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST",
        "Sun Nov 6 08:49:37 1994", "sun, 06 nov 1994 08:49:37 gmt",
    ])
    func invalidValuesAreNil(value: String) {
        #expect(RetryAfter(headerValue: value) == nil)
    }

    @Test func delayFromADateIsNeverNegative() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 1_030)).delay(from: now) == 30)
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 900)).delay(from: now) == 0)
    }
}
