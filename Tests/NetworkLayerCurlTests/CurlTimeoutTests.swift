import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request's `timeoutInterval` is an idle timeout with millisecond precision; the
/// configuration's `timeout` bounds the whole transfer; what must come at once does. Scripts/test
/// runs this suite on its own.
@Suite("CurlTransport timeouts", .needsFixtureServer, .serialized)
struct CurlTimeoutTests {
    @Test func silenceLongerThanTheIdleTimeoutFailsWithTimedOutToTheMillisecond() async throws {
        let start = DispatchTime.now()
        let error = await urlError { try await CurlTransport().send(fixtureRequest("/hang", timeout: 0.3)) }
        let elapsed = seconds(since: start)
        #expect(error?.code == .timedOut)
        #expect(elapsed >= 0.3 && elapsed < 0.3 + TestTiming.bound(0.15), "took \(elapsed) s")
    }

    @Test func bytesArrivingMoreOftenThanTheIdleTimeoutKeepTheTransferAlive() async throws {
        let (data, response) = try await CurlTransport().send(fixtureRequest("/drip?bytes=3", timeout: 1.6))
        #expect(response.statusCode == 200)
        #expect(data.count == 3)
    }

    @Test func theTotalTimeoutEndsATransferThatIsNeverIdle() async throws {
        let transport = CurlTransport(configuration: .init(timeout: 0.25))
        let start = DispatchTime.now()
        let error = await urlError { try await transport.send(fixtureRequest("/drip?bytes=3", timeout: 10)) }
        let elapsed = seconds(since: start)
        #expect(error?.code == .timedOut)
        #expect(elapsed >= 0.25 && elapsed < 0.25 + TestTiming.bound(0.15), "took \(elapsed) s")
    }

    /// A server's 401 comes back at once over either transport: FoundationNetworking would wait
    /// for ever for a credential, and URLSessionTransport ends its challenge.
    @Test(arguments: TestTransport.all)
    func aBasicAuthChallengeComesBackAtOnce(_ transport: TestTransport) async throws {
        let start = DispatchTime.now()
        let (_, response) = try await transport.make().send(fixtureRequest("/basic-auth"))
        #expect(response.statusCode == 401)
        #expect(seconds(since: start) < TestTiming.bound(1))
    }

    /// A request queued behind `maximumConnectionsPerHost` has no idle timeout until it has a
    /// connection: counted from its start, the second drip timed out at 1.6 s while the first
    /// still moved a byte a second.
    @Test func aRequestWaitingForAConnectionIsNotIdle() async throws {
        let transport = CurlTransport(configuration: .init(maximumConnectionsPerHost: 1))
        async let first = transport.send(fixtureRequest("/drip?bytes=3", timeout: 1.6))
        try await Task.sleep(nanoseconds: 50_000_000)
        async let second = transport.send(fixtureRequest("/drip?bytes=3", timeout: 1.6))
        let (a, b) = try await (first, second)
        #expect(a.0.count == 3 && b.0.count == 3)
    }

    @Test func withoutATotalTimeoutADripLongerThanAnyIdleTimeoutCompletes() async throws {
        let transport = CurlTransport()
        let (data, _) = try await transport.send(fixtureRequest("/drip?bytes=2", timeout: 1.5))
        #expect(data == Data("xx".utf8))
    }
}
