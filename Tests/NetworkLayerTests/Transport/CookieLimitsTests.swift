import Foundation
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Found from outside by helper-29 (2026-11-27): a server's cookies had no bound on either
/// transport. One response of 10,000 `Set-Cookie` fields was stored whole (5.8-6.8 s on
/// FoundationNetworking's one work queue, which every request of the process waits for), and
/// 15,000 stored cookies went out as a `Cookie` header of 160,558 bytes on every request. Both
/// transports now keep libcurl's bounds (``CookieLimits``).
@Suite("Cookie limits", .needsFixtureServer)
struct CookieLimitsTests {
    /// `/cookie-flood`: `count` cookies named `prefix0`, `prefix1`, … in one response.
    private static func flood(_ count: Int, prefix: String) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture("cookie-flood", timeout: 60)
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["count": count, "prefix": prefix])
        return endpoint
    }

    @Test(arguments: TestTransport.all)
    func oneResponseStoresAtMostFiftyCookies(_ transport: TestTransport) async throws {
        let (sender, storage) = try #require(transport.makeWithCookies())
        let router = Router<TestEndpoint>(transport: sender, callbackQueue: DispatchQueue(label: "tests"))
        _ = try await router.request(Self.flood(1_000, prefix: "a"))
        let url = try #require(TestServers.fixture)
        let stored = storage.cookies(for: url) ?? []
        #expect(stored.count == CookieLimits.perResponse)
        // The first fields of the response are the ones kept.
        let later = stored.map(\.name).filter { (Int($0.dropFirst()) ?? .max) >= CookieLimits.perResponse }
        #expect(later.isEmpty, "kept \(later.count) cookies from past the first \(CookieLimits.perResponse) fields")
    }

    @Test(arguments: TestTransport.all)
    func aRequestCarriesAtMost150Cookies(_ transport: TestTransport) async throws {
        let (sender, storage) = try #require(transport.makeWithCookies())
        let router = Router<TestEndpoint>(transport: sender, callbackQueue: DispatchQueue(label: "tests"))
        for prefix in ["a", "b", "c", "d"] {
            _ = try await router.request(Self.flood(CookieLimits.perResponse, prefix: prefix))
        }
        let url = try #require(TestServers.fixture)
        #expect(storage.cookies(for: url)?.count == 4 * CookieLimits.perResponse)
        let echo = try jsonObject(try await router.request(.fixture("echo")).data)
        let header = try #require((echo["headers"] as? [String: String])?["cookie"])
        #expect(header.components(separatedBy: "; ").count == CookieLimits.sentPerRequest)
        #expect(header.utf8.count <= CookieLimits.headerBytes)
    }

    @Test func theCookieHeaderStaysWithinItsLength() throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let url = try #require(URL(string: "http://127.0.0.1/"))
        let value = String(repeating: "v", count: 3_000)
        for index in 0..<5 {
            storage.setCookie(try #require(HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "big\(index)", .value: value])))
        }
        storage.setCookie(try #require(HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "small", .value: "1"])))
        let header = try #require(storage.cookieHeader(for: url))
        #expect(header.utf8.count <= CookieLimits.headerBytes)
        // Two of the large ones fit, and the small one after them.
        #expect(header.components(separatedBy: "; ").count == 3)
        #expect(header.hasSuffix("; small=1"))
    }

    @Test func aFullStorageTakesReplacementsButNoNewCookie() throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let url = try #require(URL(string: "http://127.0.0.1/"))
        for batch in 0...(CookieLimits.stored / CookieLimits.perResponse) {
            storage.store(setCookieValues: (0..<CookieLimits.perResponse).map { "n\(batch)x\($0)=1; Path=/" }, from: url)
        }
        #expect(storage.cookies?.count == CookieLimits.stored)
        storage.store(setCookieValues: ["n0x0=2; Path=/", "fresh=1; Path=/"], from: url)
        let names = Dictionary((storage.cookies ?? []).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(names["n0x0"] == "2")
        #expect(names["fresh"] == nil)
        #expect(storage.cookies?.count == CookieLimits.stored)
    }
}
