import Foundation
import Testing
@testable import NetworkLayer

/// RFC 9111 §4.2: how long a stored response is served without asking the server.
@Suite("HTTP cache: freshness and age")
struct CacheFreshnessTests {
    let clock = TestClock()
    var now: Date { clock.now }

    /// Stores the origin's first answer, moves the clock by `seconds` and asks again.
    private func secondRequest(after seconds: TimeInterval, headers: [String: String], cache: HTTPCache? = nil) throws -> Exchange {
        let cache = try cache ?? memoryCache(clock)
        let origin = countingOrigin(headers)
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: seconds)
        return exchange(cache, makeRequest(), origin: origin)
    }

    /// A clock set back after a response was stored: how long it has been stored cannot be
    /// known, so it is not fresh. It counted as stored for no time at all, and a `max-age=60`
    /// stored a year ahead was served for the whole year (found from outside, 2026-11-26).
    @Test(arguments: [1.5, 86_400, 364 * 86_400] as [TimeInterval])
    func aResponseStoredAheadOfTheClockIsNotFresh(secondsBack: TimeInterval) throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(["Cache-Control": "max-age=60"])
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: -secondsBack)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.outcome == .network)
        #expect(second.body == "response 2")
    }

    /// Within a second, a clock's small steps back do not count.
    @Test func aClockThatStepsBackLessThanASecondKeepsItFresh() throws {
        #expect(try secondRequest(after: -0.5, headers: ["Cache-Control": "max-age=60"]).outcome == .hit)
    }

    @Test func maxAgeIsServedFromTheCacheUntilItEnds() throws {
        let second = try secondRequest(after: 59, headers: ["Cache-Control": "max-age=60", "Date": httpDate(now)])
        #expect(second.outcome == .hit)
        #expect(second.body == "response 1")
    }

    @Test func pastMaxAgeTheRequestGoesToTheServer() throws {
        let second = try secondRequest(after: 61, headers: ["Cache-Control": "max-age=60", "Date": httpDate(now)])
        #expect(second.outcome == .network)
        #expect(second.body == "response 2")
    }

    @Test func maxAgeWinsOverExpires() throws {
        let headers = ["Cache-Control": "max-age=10", "Date": httpDate(now), "Expires": httpDate(now + 3_600)]
        #expect(try secondRequest(after: 11, headers: headers).outcome == .network)
    }

    @Test func withoutMaxAgeTheLifetimeIsExpiresMinusDate() throws {
        // The server's clock is 100 s behind ours: Expires - Date still gives 200 s, of which
        // the response has used 100 (its apparent age) when it arrives.
        let serverNow = now - 100
        let headers = ["Date": httpDate(serverNow), "Expires": httpDate(serverNow + 200)]
        #expect(try secondRequest(after: 99, headers: headers).outcome == .hit)
        #expect(try secondRequest(after: 101, headers: headers).outcome == .network)
    }

    @Test(arguments: ["0", "-1", "never", "Thu, 01 Jan 1970 00:00:00 GMT"])
    func anUnreadableOrPastExpiresIsAlreadyExpired(expires: String) throws {
        let headers = ["Date": httpDate(now), "Expires": expires]
        #expect(try secondRequest(after: 0, headers: headers).outcome == .network)
    }

    @Test func theAgeHeaderCountsAgainstMaxAge() throws {
        let headers = ["Cache-Control": "max-age=60", "Age": "50", "Date": httpDate(now)]
        #expect(try secondRequest(after: 9, headers: headers).outcome == .hit)
        #expect(try secondRequest(after: 11, headers: headers).outcome == .network)
    }

    @Test func theTimeTheResponseTookCountsInItsAge() throws {
        // RFC 9111 §4.2.3: corrected_age_value = age_value + response_delay. No Date header,
        // so the apparent age is zero and only the 5 s the answer took count.
        let cache = try memoryCache(clock)
        let origin = FakeOrigin { [clock] request, number in
            clock.advance(by: 5)
            return makeResponse(to: request, headers: ["Cache-Control": "max-age=10"], body: "response \(number)")
        }
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 4)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .hit)
        clock.advance(by: 2)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome != .hit)
    }

    @Test func aServedResponseSaysItsCurrentAge() throws {
        let headers = ["Cache-Control": "max-age=600", "Age": "50", "Date": httpDate(now)]
        let second = try secondRequest(after: 30, headers: headers)
        #expect(second.response?.header("Age") == "80")
    }

    @Test func aDateInTheFutureGivesNoNegativeAge() throws {
        let headers = ["Cache-Control": "max-age=60", "Date": httpDate(now + 3_600)]
        let second = try secondRequest(after: 10, headers: headers)
        #expect(second.outcome == .hit)
        #expect(second.response?.header("Age") == "10")
    }

    @Test func withoutExplicitFreshnessTenPercentOfTheLastModifiedAgeIsUsed() throws {
        // Modified 5 days before Date: fresh for half a day.
        let headers = ["Date": httpDate(now), "Last-Modified": httpDate(now - 5 * 86_400)]
        #expect(try secondRequest(after: 43_199, headers: headers).outcome == .hit)
        #expect(try secondRequest(after: 43_201, headers: headers).outcome != .hit)
    }

    @Test func heuristicFreshnessIsCappedAtOneDay() throws {
        let headers = ["Date": httpDate(now), "Last-Modified": httpDate(now - 400 * 86_400)]
        #expect(try secondRequest(after: 86_399, headers: headers).outcome == .hit)
        #expect(try secondRequest(after: 86_401, headers: headers).outcome != .hit)
    }

    @Test func heuristicFreshnessCanBeTurnedOff() throws {
        let cache = try memoryCache(clock) { $0.heuristicFreshness = .none }
        let headers = ["Date": httpDate(now), "Last-Modified": httpDate(now - 5 * 86_400)]
        #expect(try secondRequest(after: 1, headers: headers, cache: cache).outcome != .hit)
    }

    @Test func withoutAnyFreshnessInformationAResponseIsStale() throws {
        #expect(try secondRequest(after: 0, headers: ["Date": httpDate(now)]).outcome == .network)
    }

    @Test func sharedMaxAgeIsIgnoredByAPrivateCache() throws {
        let headers = ["Cache-Control": "s-maxage=600", "Date": httpDate(now)]
        #expect(try secondRequest(after: 1, headers: headers).outcome == .network)
    }
}
