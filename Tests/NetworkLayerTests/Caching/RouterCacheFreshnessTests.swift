import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Freshness from `Expires` and from `Age` through the router's cache stage, against the
/// fixture's caching routes: each rule proven by the server's hit counter, the body received
/// (its `hit` says which request of the key the server answered) and the cache outcome, over
/// each transport. CacheFreshnessTests checks the arithmetic alone.
@Suite("Caching through the router: Expires and Age", .needsFixtureServer)
struct RouterCacheFreshnessTests {
    struct Body: Decodable, Equatable {
        let hit: Int
    }

    private func endpoint(_ path: String, policy: URLRequest.CachePolicy = .useProtocolCachePolicy) -> CachedEndpoint {
        CachedEndpoint(base: .fixture(path), cachePolicy: policy)
    }

    private func serverHits(_ key: String) async throws -> Int {
        let stats = try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "stats")).request(.fixture("cache/stats/\(key)"))
        return try jsonObject(stats.data)["hits"] as? Int ?? -1
    }

    @Test(arguments: TestTransport.all)
    func anExpiresInTheFutureWithoutMaxAgeIsServedFromTheCache(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = Router<CachedEndpoint>(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let first = try await router.request(endpoint("cache/expires/\(key)?seconds=60"))
        #expect(first.header("Expires") != nil)
        #expect(first.header("Cache-Control") == nil)
        #expect(first.cacheOutcome == .network)
        let second = try await router.request(endpoint("cache/expires/\(key)?seconds=60"))
        #expect(second.cacheOutcome == .hit)
        #expect(second.metrics?.cacheOutcome == .hit)
        #expect(try second.decode(Body.self).hit == 1)
        #expect(try await serverHits(key) == 1)
    }

    /// An `Expires` that has passed, and `Expires: 0` and a date in 2100 with an extra space
    /// (invalid dates, which RFC 9111 §5.3 says mean "already expired").
    enum Expired: String, CaseIterable, Sendable, CustomStringConvertible {
        case inThePast = "ago=60"
        case zero = "value=0"
        case malformed = "value=Fri,%20%2001%20Jan%202100%2000:00:00%20GMT"

        var description: String { rawValue }
    }

    /// The response is stored but stale at once: the second request reaches the server (there is
    /// no validator, so it is fetched whole), and the stored copy is still there for a policy
    /// that accepts stale data.
    @Test(arguments: TestTransport.all, Expired.allCases)
    func anExpiredExpiresIsFetchedAgain(_ transport: TestTransport, _ expired: Expired) async throws {
        let key = UUID().uuidString
        let router = Router<CachedEndpoint>(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let path = "cache/expires/\(key)?\(expired.rawValue)"
        let first = try await router.request(endpoint(path))
        #expect(first.header("Cache-Control") == nil)
        if expired == .zero { #expect(first.header("Expires") == "0") }
        if expired == .malformed { #expect(first.header("Expires") == "Fri,  01 Jan 2100 00:00:00 GMT") }
        let second = try await router.request(endpoint(path))
        #expect(second.cacheOutcome == .network)
        #expect(try second.decode(Body.self).hit == 2)
        #expect(try await serverHits(key) == 2)
        let stale = try await router.request(endpoint(path, policy: .returnCacheDataDontLoad))
        #expect(stale.cacheOutcome == .staleHit)
        #expect(try stale.decode(Body.self).hit == 2)
        #expect(try await serverHits(key) == 2)
    }

    /// `max-age=60` with `Age: 59` leaves a second of freshness; with `Age: 0`, a minute. The
    /// cache's clock is moved by hand, so the second passes without sleeping and at exact
    /// points: fresh half a second after the response, stale a second later, while the
    /// response that arrived new is still fresh.
    @Test(arguments: TestTransport.all)
    func anAgeOf59LeavesAMaxAgeOf60FreshForOneSecond(_ transport: TestTransport) async throws {
        let aged = UUID().uuidString
        let new = UUID().uuidString
        let clock = TestClock(Date())
        let cache = try HTTPCache(configuration: .init(clock: clock.read))
        let router = Router<CachedEndpoint>(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), cache: cache)
        let agedPath = "cache/age/\(aged)?age=59&max_age=60"
        let newPath = "cache/age/\(new)?age=0&max_age=60"

        let first = try await router.request(endpoint(agedPath))
        #expect(first.header("Age") == "59")
        #expect(first.header("Cache-Control") == "max-age=60")
        _ = try await router.request(endpoint(newPath))

        clock.advance(by: 0.5)
        let fresh = try await router.request(endpoint(agedPath))
        #expect(fresh.cacheOutcome == .hit)
        #expect(try fresh.decode(Body.self).hit == 1)
        #expect(try await serverHits(aged) == 1)

        clock.advance(by: 1)
        let stale = try await router.request(endpoint(agedPath))
        #expect(stale.cacheOutcome == .network)
        #expect(try stale.decode(Body.self).hit == 2)
        #expect(try await serverHits(aged) == 2)
        let stillFresh = try await router.request(endpoint(newPath))
        #expect(stillFresh.cacheOutcome == .hit)
        #expect(try await serverHits(new) == 1)
    }
}
