import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transfer cancelled while its host name is still being looked up does not hold the others.
///
/// Found from outside (2026-11-26): removing such a transfer made libcurl wait, on the engine's
/// one thread, for the lookup's thread to return, so an unrelated request to a server that
/// answers at once took 4.65 s. The workload runs in a child process with
/// `Tests/Fixtures/slow_resolver.c` preloaded (built by Scripts/test), whose lookup of
/// `slow.networklayer.test` takes 5 s and answers 127.0.0.1.
@Suite("CurlTransport, a cancelled lookup", .needsFixtureServer)
struct CurlResolverStallTests {
    @Test func otherRequestsDoNotWaitForACancelledLookup() async throws {
        let library = try #require(
            ProcessInfo.processInfo.environment["NETWORKLAYER_SLOW_RESOLVER"], "Scripts/test builds the slow resolver")
        try await ChildProcess.expectCleanRun(
            workload: "cancelled-lookup", filter: "CurlResolverStallTests/cancelledLookupWorkload", timeout: 60,
            proof: "LOOKUP: done", environment: ["LD_PRELOAD": library, "NETWORKLAYER_SLOW_RESOLVER_SECONDS": "5"])
    }

    @Test(.childWorkload("cancelled-lookup"))
    func cancelledLookupWorkload() async throws {
        let transport = CurlTransport()
        let fixture = try #require(TestServers.fixture)
        let port = try #require(fixture.port)
        // The slow name's lookup, cancelled while it runs.
        let slow = try #require(URL(string: "http://slow.networklayer.test:\(port)/status/200"))
        let lookingUp = Task { try await transport.send(URLRequest(url: slow, timeoutInterval: 30)) }
        try await Task.sleep(nanoseconds: 300_000_000)
        lookingUp.cancel()
        let cancelled = await lookingUp.result
        #expect((try? cancelled.get()) == nil, "the slow lookup's request was not cancelled")
        // Then a request to a server that answers at once.
        let start = DispatchTime.now()
        let (_, response) = try await transport.send(fixtureRequest("/status/200"))
        let elapsed = seconds(since: start)
        #expect(response.statusCode == 200)
        #expect(elapsed < 2, "the request waited \(elapsed) s for another's cancelled lookup")
        print("LOOKUP: done, the next request took \(elapsed) s")
        await transport.shutdown()
    }
}
