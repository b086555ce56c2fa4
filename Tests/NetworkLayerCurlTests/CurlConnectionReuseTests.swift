import Foundation
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Connections and TLS sessions outlive the transfers that opened them (issue 26).
///
/// `/connection` answers with the number the fixture gave the connection it came on and whether
/// that connection resumed a TLS session, so the tests count what the server saw.
@Suite("CurlTransport connection reuse", .needsTLSFixture)
struct CurlConnectionReuseTests {
    private func trusting() throws -> CurlTransport.Configuration {
        .init(certificateAuthority: .file(try #require(TLSFixture.certificateAuthorityFile)))
    }

    private func connection(_ transport: CurlTransport, _ query: String = "") async throws -> (number: Int, resumed: Bool?) {
        let base = try #require(TLSFixture.url)
        let url = try #require(URL(string: base.absoluteString + "/connection" + query))
        let (data, response) = try await transport.send(URLRequest(url: url, timeoutInterval: TestTiming.requestTimeout))
        #expect(response.statusCode == 200)
        let object = try jsonObject(data)
        return (try #require(object["connection"] as? Int), object["tls_session_reused"] as? Bool)
    }

    /// Sixteen requests at once, none answered until all sixteen have arrived, so each needs a
    /// connection of its own: a 100 ms hold let a burst started slowly, on a loaded machine, open
    /// fewer connections than the next one.
    private func burst(_ transport: CurlTransport) async throws -> Set<Int> {
        let barrier = UUID().uuidString
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try await connection(transport, "?barrier=\(barrier)&count=16").number }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(numbers.count == 16, "the burst's connections: \(numbers.sorted())")
        return numbers
    }

    /// libcurl sizes its connection cache to four times the transfers in its multi handle at the
    /// moment a connection comes back: one request at a time after a burst of sixteen used to
    /// close the burst's idle connections one by one, and the next burst opened new ones.
    @Test func aBurstAfterRequestsOneAtATimeFindsTheFirstBurstsConnections() async throws {
        let (first, second) = try await withCurlTransport(try trusting()) { transport in
            let first = try await burst(transport)
            for _ in 0..<8 {
                _ = try await connection(transport)
            }
            return (first, try await burst(transport))
        }
        #expect(second.subtracting(first).isEmpty, "new connections: \(second.subtracting(first).sorted()), first burst's: \(first.sorted())")
    }

    /// Each transfer used to have an easy handle of its own, and with it libcurl's TLS session
    /// cache: a new connection always made a full handshake.
    @Test func aNewConnectionResumesTheTLSSessionOfAnEarlierOne() async throws {
        let (first, second) = try await withCurlTransport(try trusting()) { transport in
            (try await connection(transport, "?close=1"), try await connection(transport))
        }
        #expect(second.number != first.number)
        #expect(second.resumed == true)
    }

    /// libcurl read the authorities again for every new connection, about 20 ms of CPU with
    /// Debian's bundle, unless it could keep them in the multi handle, which it does only when
    /// they come from a file alone (Debian's libcurl adds the directory /etc/ssl/certs). Kept,
    /// they are read once: a second connection needs the file no more.
    @Test func theAuthorityFileIsReadOnceRatherThanForEveryConnection() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ca.pem")
        try FileManager.default.copyItem(at: try #require(TLSFixture.certificateAuthorityFile), to: file)
        let (first, second) = try await withCurlTransport(.init(certificateAuthority: .file(file))) { transport in
            let first = try await connection(transport, "?close=1")
            try FileManager.default.removeItem(at: file)
            return (first, try await connection(transport))
        }
        #expect(second.number != first.number)
    }

    /// A process may exit as soon as `shutdown()` returns, even one that had TLS connections
    /// open: the engine's thread has closed them and freed OpenSSL's state for itself by then.
    /// Without the wait, 9 of 30 such children under AddressSanitizer ended with a leak report of
    /// that state (the thread ended after OpenSSL's exit-time cleanup), and 2 of 40 runs of this
    /// suite. Under AddressSanitizer (Scripts/test) a leak fails the child, and ten children
    /// leave a release without the wait about a 3 % chance to pass; elsewhere each child still
    /// has to finish its requests and exit cleanly.
    @Test func aProcessMayExitAsSoonAsShutdownReturns() async throws {
        for _ in 0..<10 {
            try await ChildProcess.expectCleanRun(
                workload: "tls-shutdown-exit", filter: "CurlConnectionReuseTests/childTLSThenShutdown", timeout: 60,
                proof: "SHUTDOWN: round")
        }
    }

    @Test(.childWorkload("tls-shutdown-exit"))
    func childTLSThenShutdown() async throws {
        let transport = CurlTransport(configuration: try trusting())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try await connection(transport, "?close=1") }
                group.addTask { _ = try await connection(transport) }
            }
            try await group.waitForAll()
        }
        await transport.shutdown()
        print("SHUTDOWN: round ended")
    }
}
