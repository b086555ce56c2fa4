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
/// proxy. Serialized: the proxy reports its last `CONNECT`, which another test's would replace.
@Suite("CurlTransport through a proxy", .needsTLSFixture, .serialized)
struct CurlProxyTests {
    @Test func anHTTPSResponseThroughAProxyIsTheOrigins() async throws {
        try await runThroughTheProxy("through-a-proxy", test: "throughAProxyWorkload", proof: "PROXY: done")
    }

    /// Runs the workload `test` in a child process whose environment alone names the proxy for
    /// https (the proxy's own endpoints go directly, whatever proxy the machine names).
    private func runThroughTheProxy(_ workload: String, test: String, proof: String) async throws {
        let proxy = try #require(TLSFixture.proxy, "Scripts/test starts the CONNECT proxy")
        try await ChildProcess.expectCleanRun(
            workload: workload, filter: "CurlProxyTests/\(test)", timeout: 60, proof: proof,
            environment: [
                "https_proxy": proxy.absoluteString, "HTTPS_PROXY": "", "no_proxy": "", "NO_PROXY": "",
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
        let (data, response) = try await transport.send(URLRequest(url: url, timeoutInterval: TestTiming.requestTimeout))
        await transport.shutdown()
        #expect(response.statusCode == 418)
        #expect(response.value(forHTTPHeaderField: "X-Proxy") == nil)
        #expect(String(decoding: data, as: UTF8.self) == "teapot")
        #expect(try await tunnels(through: proxy) > tunnelsBefore, "the request did not go through the proxy")
        print("PROXY: done")
    }

    /// Found from outside: a request's `Proxy-Authorization` went into the tunnel to the origin
    /// (every header went to `CURLOPT_HTTPHEADER`, which libcurl sends to the server only), and
    /// never to the proxy it was for. It now goes to the proxy's `CONNECT` alone.
    @Test func aProxyAuthorizationGoesToTheProxyNotToTheOrigin() async throws {
        try await runThroughTheProxy("proxy-authorization", test: "proxyAuthorizationWorkload", proof: "PROXY-AUTH: done")
    }

    @Test(.childWorkload("proxy-authorization"))
    func proxyAuthorizationWorkload() async throws {
        let proxy = try #require(TLSFixture.proxy)
        let origin = try #require(TLSFixture.url)
        let authority = try #require(TLSFixture.certificateAuthorityFile)
        let transport = CurlTransport(configuration: .init(certificateAuthority: .file(authority)))
        var request = URLRequest(url: origin.appendingPathComponent("echo"), timeoutInterval: TestTiming.requestTimeout)
        request.setValue("Basic cHJveHk6cHc=", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("yes", forHTTPHeaderField: "X-Visible")
        let (data, _) = try await transport.send(request)
        await transport.shutdown()
        let echo = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["proxy-authorization"] == nil, "the origin received the proxy's credential")
        #expect(headers["x-visible"] == "yes")
        let names = try await lastConnect(through: proxy)
        #expect(names.contains("proxy-authorization"), "the CONNECT carried \(names)")
        #expect(!names.contains("x-visible"))
        print("PROXY-AUTH: done")
    }

    private func lastConnect(through proxy: URL) async throws -> [String] {
        let transport = CurlTransport()
        do {
            let (data, _) = try await transport.send(URLRequest(url: proxy.appendingPathComponent("last-connect"), timeoutInterval: TestTiming.requestTimeout))
            await transport.shutdown()
            return String(decoding: data, as: UTF8.self).split(separator: ",").map(String.init)
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The number of tunnels the proxy has opened, asked of it directly (no proxy for that).
    private func tunnels(through proxy: URL) async throws -> Int {
        let url = proxy.appendingPathComponent("tunnels")
        let transport = CurlTransport()
        do {
            let (data, _) = try await transport.send(URLRequest(url: url, timeoutInterval: TestTiming.requestTimeout))
            await transport.shutdown()
            return Int(String(decoding: data, as: UTF8.self)) ?? -1
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}
