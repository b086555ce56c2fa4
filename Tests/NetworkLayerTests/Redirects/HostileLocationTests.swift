import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A redirect whose `Location` is a network-path reference (`//host/path`) with a host that
/// `URLComponents` rejects: FoundationNetworking builds the next request itself before any
/// delegate is asked, finds no URL, and traps ("Invalid URL", HTTPURLProtocol.swift:612), so
/// any server can end a Linux process that sends through URLSession. The router follows
/// redirects itself, and over `CurlTransport` such an answer is a typed failure. In child
/// processes: over URLSession it is a process-ending trap.
@Suite("A redirect to a Location FoundationNetworking cannot build", .needsFixtureServer, .timeLimit(.minutes(2)))
struct HostileLocationTests {
    static let curlChild = "hostile-location-curl"
    static let urlSessionChild = "hostile-location-urlsession"

    /// Each builds no URL in FoundationNetworking (checked with its own code, 2026-11-27; so does
    /// an IPv6 host with a zone, left out: libcurl would connect to it, and tests contact
    /// 127.0.0.1 alone).
    static let locations = ["//a%20b/x", "//h%2Fst/x", "//%00/x"]

    static func endpoint(_ location: String) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": location, "status": 302])
        return endpoint
    }

    @Test func overCurlEachIsATypedFailureOrAnAnswer() async throws {
        guard TestTransport.all.contains(.curl) else { return }
        try await ChildProcess.expectCleanRun(
            workload: Self.curlChild, filter: "HostileLocationTests/curlWorkload", timeout: 120, proof: "HOSTILELOCATION: done")
    }

    @Test(.childWorkload(HostileLocationTests.curlChild))
    func curlWorkload() async throws {
        let router = TestTransport.curl.router()
        for location in Self.locations {
            let outcome: String
            do {
                let response = try await router.request(Self.endpoint(location))
                outcome = "answered \(response.statusCode)"
            } catch {
                outcome = "failed: \(error.localizedDescription)"
            }
            print("HOSTILELOCATION: \(location): \(outcome)")
        }
        print("HOSTILELOCATION: done")
    }

    /// FoundationNetworking's trap, kept as a measured fact of LinuxNotes: when this fails, a
    /// toolchain fixed it, and LinuxNotes and ChoosingATransport should say so.
    @Test func overURLSessionFoundationNetworkingStillTraps() async throws {
        let child = try await ChildProcess.run(
            workload: Self.urlSessionChild, filter: "HostileLocationTests/urlSessionWorkload", timeout: 120)
        #expect(child.crashed, "FoundationNetworking no longer traps: update LinuxNotes and ChoosingATransport")
        #expect(child.fatalError?.contains("Invalid URL") == true, "\(child.fatalError ?? child.output.suffix(500).description)")
    }

    @Test(.childWorkload(HostileLocationTests.urlSessionChild))
    func urlSessionWorkload() async throws {
        _ = try? await TestTransport.urlSession.router().request(Self.endpoint(Self.locations[0]))
        print("HOSTILELOCATION: no trap")
    }
}
