import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that owns its sessions invalidates them when its last copy goes, and
/// FoundationNetworking traps ("Session invalidated") on a task made on an invalidated session.
/// Tasks are made later, on the transport's own queue (``SessionDelegate/starts``), and a request
/// whose body libcurl could not send again is made anew from its completion: both hold the
/// sessions until their task is made. Each case runs in a child process, so that a trap fails
/// the test instead of ending the run.
@Suite("A transport released while its task is still to be made", .needsFixtureServer)
struct ReleasedTransportTests {
    @Test func aTaskMadeAfterItsTransportWentIsSent() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "released-transport", filter: "ReleasedTransportTests/releasedTransportWorkload", timeout: 60,
            proof: "RELEASED: done")
    }

    @Test(.enabled(if: ChildProcess.requestedWorkload == "released-transport", "runs in a child process only"))
    func releasedTransportWorkload() async throws {
        let fixture = try #require(TestServers.fixture)
        let outcome = Locked<Result<Int, any Error>?>(nil)
        let gate = DispatchSemaphore(value: 0)
        do {
            let transport = URLSessionTransport()
            let delegate = try #require(transport.ownedTransferSession?.delegate)
            // Held until the transport has gone, so that the task is made after that.
            delegate.starts.async { gate.wait() }
            _ = transport.start(URLRequest(url: fixture.appendingPathComponent("echo"))) { result in
                outcome.withLock { $0 = result.map { $0.1.statusCode } }
            }
        }
        gate.signal()
        #expect(await eventually(within: 20) { outcome.withLock { $0 } != nil })
        #expect(try outcome.withLock { $0 }?.get() == 200)
        print("RELEASED: done")
    }
}
