import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router's cache stage against the fixture's caching routes: each rule proven by how many
/// requests reached the server and by the body received, over each transport.
@Suite("Caching through the router", .needsFixtureServer)
struct RouterCacheTests {
    struct Body: Decodable, Equatable {
        let hit: Int
        let version: Int?
        let language: String?
    }

    private func router(_ transport: TestTransport, plugins: [any PluginType] = []) throws -> Router<CachedEndpoint> {
        Router(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: plugins, cache: .inMemory())
    }

    private func endpoint(_ path: String, _ method: HTTPMethod = .get, policy: URLRequest.CachePolicy = .useProtocolCachePolicy)
        -> CachedEndpoint
    {
        CachedEndpoint(base: .fixture(path, method), cachePolicy: policy)
    }

    private func serverHits(_ key: String) async throws -> Int {
        let stats = try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "stats")).request(.fixture("cache/stats/\(key)"))
        return try jsonObject(stats.data)["hits"] as? Int ?? -1
    }

    @Test(arguments: TestTransport.all)
    func aFreshResponseIsServedFromTheCacheWithoutARequest(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        let first = try await router.request(endpoint("cache/max-age/\(key)?seconds=60"))
        let second = try await router.request(endpoint("cache/max-age/\(key)?seconds=60"))
        #expect(first.cacheOutcome == .network)
        #expect(second.cacheOutcome == .hit)
        #expect(try second.decode(Body.self).hit == 1)
        #expect(try await serverHits(key) == 1)
        #expect(second.metrics?.attempts == 0)
    }

    @Test(arguments: TestTransport.all)
    func noStoreIsNeverStored(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        _ = try await router.request(endpoint("cache/no-store/\(key)"))
        let second = try await router.request(endpoint("cache/no-store/\(key)"))
        #expect(second.cacheOutcome == .network)
        #expect(try second.decode(Body.self).hit == 2)
    }

    @Test(arguments: TestTransport.all)
    func noCacheIsRevalidatedWithTheETagAndA304KeepsTheStoredBody(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        let first = try await router.request(endpoint("cache/no-cache/\(key)"))
        let second = try await router.request(endpoint("cache/no-cache/\(key)"))
        #expect(second.cacheOutcome == .revalidated)
        #expect(second.statusCode == 200)
        #expect(second.data == first.data)
        let stats = try jsonObject(try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "s")).request(.fixture("cache/stats/\(key)")).data)
        #expect(stats["not_modified"] as? Int == 1)
        #expect((stats["last_if_none_match"] as? String)?.isEmpty == false)
    }

    @Test(arguments: TestTransport.all)
    func aStaleResponseIsRevalidatedWithIfModifiedSince(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        _ = try await router.request(endpoint("cache/last-modified/\(key)?max_age=0"))
        let second = try await router.request(endpoint("cache/last-modified/\(key)?max_age=0"))
        #expect(second.cacheOutcome == .revalidated)
        let stats = try jsonObject(try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "s")).request(.fixture("cache/stats/\(key)")).data)
        #expect((stats["last_if_modified_since"] as? String)?.isEmpty == false)
    }

    @Test(arguments: TestTransport.all)
    func anUnsafeRequestToTheSameURLInvalidatesTheStoredResponse(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        let first = try await router.request(endpoint("cache/etag/\(key)?max_age=60"))
        #expect(try await router.request(endpoint("cache/etag/\(key)?max_age=60")).cacheOutcome == .hit)
        _ = try await router.request(endpoint("cache/etag/\(key)?max_age=60", .post))
        let after = try await router.request(endpoint("cache/etag/\(key)?max_age=60"))
        #expect(after.cacheOutcome == .network)
        #expect(try after.decode(Body.self).version != (try first.decode(Body.self).version))
    }

    @Test(arguments: TestTransport.all)
    func varyKeepsOneResponsePerLanguage(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        var french = endpoint("cache/vary/\(key)")
        french.extraHeaders = ["Accept-Language": "fr"]
        var german = endpoint("cache/vary/\(key)")
        german.extraHeaders = ["Accept-Language": "de"]
        #expect(try await router.request(french).decode(Body.self).language == "fr")
        #expect(try await router.request(german).decode(Body.self).language == "de")
        let again = try await router.request(french)
        #expect(again.cacheOutcome == .hit)
        #expect(try again.decode(Body.self).language == "fr")
        #expect(try await serverHits(key) == 2)
    }

    @Test(arguments: TestTransport.all)
    func responsesAreNotSharedAcrossCredentials(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        var alice = endpoint("cache/private/\(key)")
        alice.extraHeaders = ["Authorization": "Bearer alice"]
        var bob = endpoint("cache/private/\(key)")
        bob.extraHeaders = ["Authorization": "Bearer bob"]
        _ = try await router.request(alice)
        #expect(try await router.request(bob).cacheOutcome == .network)
        #expect(try await router.request(alice).cacheOutcome == .hit)
        #expect(try await serverHits(key) == 2)
    }

    @Test(arguments: TestTransport.all)
    func cachePoliciesMeanTheSameEverywhere(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        _ = try await router.request(endpoint("cache/max-age/\(key)?seconds=60"))
        let reload = try await router.request(endpoint("cache/max-age/\(key)?seconds=60", policy: .reloadIgnoringLocalCacheData))
        #expect(reload.cacheOutcome == .network)
        #expect(try await router.request(endpoint("cache/max-age/\(key)?seconds=60", policy: .returnCacheDataDontLoad)).cacheOutcome == .hit)
        await #expect {
            try await router.request(endpoint("cache/max-age/never-stored-\(key)", policy: .returnCacheDataDontLoad))
        } throws: { error in
            guard case NetworkError.cache(.notCached) = error else { return false }
            return true
        }
        #expect(try await serverHits(key) == 2)
    }

    @Test(arguments: TestTransport.all)
    func anEndpointThatIsNotCacheableGoesAroundTheCache(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        var login = endpoint("cache/max-age/\(key)?seconds=60")
        login.cacheable = false
        _ = try await router.request(login)
        let second = try await router.request(login)
        #expect(second.cacheOutcome == .network)
        #expect(second.metrics?.cacheOutcome == .network)
        #expect(try await serverHits(key) == 2)
    }
}

/// A fixture endpoint with the cache's settings and extra headers under the test's control.
struct CachedEndpoint: EndPointType {
    var base: TestEndpoint
    var cachePolicy: URLRequest.CachePolicy
    var cacheable = true
    var extraHeaders: HTTPHeaders = [:]

    var baseURL: URL { base.baseURL }
    var path: String { base.path }
    var httpMethod: HTTPMethod { base.httpMethod }
    var task: HTTPTask { base.task }
    var headers: HTTPHeaders? { extraHeaders }
    var isCacheable: Bool { cacheable }
}
