import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Through a proxy named in the environment (`https_proxy`, which libcurl reads), an https
/// response is the origin's, not the proxy's answer to `CONNECT`.
///
/// Found from outside (2026-11-26): libcurl hands the proxy's "200 Connection established" head
/// to the header callback, and CurlTransport took it for the response: every https request
/// through such a proxy came back 200 with the proxy's headers, the origin's status, headers
/// and cookies lost. The workload runs in a child process, whose environment alone names the
/// proxy.
@Suite("CurlTransport through a proxy", .needsTLSFixture)
struct CurlProxyTests {
    @Test func anHTTPSResponseThroughAProxyIsTheOrigins() async throws {
        let proxy = try #require(TLSFixture.proxy, "Scripts/test starts the CONNECT proxy")
        try await ChildProcess.expectCleanRun(
            workload: "through-a-proxy", filter: "CurlProxyTests/throughAProxyWorkload", timeout: 60, proof: "PROXY: done",
            environment: [
                "https_proxy": proxy.absoluteString, "HTTPS_PROXY": "", "no_proxy": "", "NO_PROXY": "",
                // The proxy's own /tunnels goes directly, whatever proxy the machine names.
                "http_proxy": "", "HTTP_PROXY": "", "all_proxy": "", "ALL_PROXY": "",
            ])
    }

    @Test(.childWorkload("through-a-proxy"))
    func throughAProxyWorkload() async throws {
        let proxy = try #require(TLSFixture.proxy)
        let origin = try #require(TLSFixture.url)
        let authority = try #require(TLSFixture.certificateAuthorityFile)
        let tunnelsBefore = try await tunnels(through: proxy)
        let transport = CurlTransport(configuration: .init(certificateAuthority: .file(authority)))
        let url = try #require(URL(string: origin.absoluteString + "/status/418?body=teapot"))
        let (data, response) = try await transport.send(URLRequest(url: url, timeoutInterval: 10))
        await transport.shutdown()
        #expect(response.statusCode == 418)
        #expect(response.value(forHTTPHeaderField: "X-Proxy") == nil)
        #expect(String(decoding: data, as: UTF8.self) == "teapot")
        #expect(try await tunnels(through: proxy) > tunnelsBefore, "the request did not go through the proxy")
        print("PROXY: done")
    }

    /// The number of tunnels the proxy has opened, asked of it directly (no proxy for that).
    private func tunnels(through proxy: URL) async throws -> Int {
        let url = proxy.appendingPathComponent("tunnels")
        let transport = CurlTransport()
        do {
            let (data, _) = try await transport.send(URLRequest(url: url, timeoutInterval: 10))
            await transport.shutdown()
            return Int(String(decoding: data, as: UTF8.self)) ?? -1
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}
