import Foundation
import Testing
import TestSupport

@testable import NetworkLayer

/// What an owned session keeps out, on every platform, and the configurations the transport
/// refuses.
@Suite
struct URLSessionTransportConfigurationTests {
    @Test func anOwnedSessionHasNoCacheAndNoCredentialStore() {
        let transport = URLSessionTransport(configuration: .default)
        #expect(transport.session.configuration.urlCache == nil)
        #expect(transport.session.configuration.urlCredentialStorage == nil)
    }

    @Test func theCallersConfigurationIsLeftAsItWas() {
        let configuration = URLSessionConfiguration.default
        let cache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)
        configuration.urlCache = cache
        _ = URLSessionTransport(configuration: configuration)
        #expect(configuration.urlCache === cache)
    }

    /// Only background configurations have an identifier; FoundationNetworking cannot make one
    /// (`background(withIdentifier:)` is unavailable there), so the rule is checked on its input.
    @Test func onlyAConfigurationWithAnIdentifierIsRefused() throws {
        #expect(URLSessionTransport.refusal(forIdentifier: nil) == nil)
        let refusal = try #require(URLSessionTransport.refusal(forIdentifier: "com.example.upload"))
        #expect(refusal.localizedDescription.contains("background URLSession configuration"))
    }

    /// A refused transport fails every request at once with its error, and sends nothing.
    @Test(.needsFixtureServer)
    func aRefusedTransportFailsEveryRequestWithItsError() async throws {
        let refusal = try #require(URLSessionTransport.refusal(forIdentifier: "com.example.upload"))
        let router = Router<TestEndpoint>(
            transport: URLSessionTransport(refusing: refusal), callbackQueue: DispatchQueue(label: "refusal"))
        let outcome = await withCheckedContinuation { continuation in
            router.request(.fixture("status/200")) { continuation.resume(returning: $0) }
        }
        guard case .failure(.transport(let error)) = outcome else {
            Issue.record("expected the refusal, got \(outcome)")
            return
        }
        #expect(error.localizedDescription.contains("background URLSession configuration"))
    }

    #if canImport(Darwin)
    @Test func aBackgroundConfigurationIsRefused() {
        let transport = URLSessionTransport(configuration: .background(withIdentifier: "networklayer.test"))
        #expect(transport.session.configuration.identifier == nil)
    }
    #endif
}
