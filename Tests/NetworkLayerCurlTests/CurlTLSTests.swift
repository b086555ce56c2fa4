import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// TLS against the https fixture server, whose certificate Scripts/test generates with its own
/// certificate authority: verified by default, accepted with that authority, refused on a
/// wrong pin.
@Suite("CurlTransport TLS", .needsTLSFixture)
struct CurlTLSTests {
    private func request(_ path: String = "/fast") throws -> URLRequest {
        let base = try #require(TLSFixture.url)
        return URLRequest(url: try #require(URL(string: base.absoluteString + path)), timeoutInterval: TestTiming.requestTimeout)
    }

    private func trusting(pins: [String] = []) throws -> CurlTransport.Configuration {
        CurlTransport.Configuration(certificateAuthority: .file(try #require(TLSFixture.certificateAuthorityFile)), pinnedPublicKeys: pins)
    }

    /// Both refuse, with the code Apple platforms use; FoundationNetworking's own
    /// `URLError(.unknown)` ("SSL certificate problem: unable to get local issuer certificate")
    /// is `.serverCertificateUntrusted` from `URLSessionTransport` too.
    @Test(arguments: TestTransport.all)
    func aCertificateOfAnUnknownAuthorityIsRefusedByDefault(_ transport: TestTransport) async throws {
        let made = transport.make()
        let error = await urlError { try await made.send(try request()) }
        await (made as? CurlTransport)?.shutdown()
        #expect(error?.code == .serverCertificateUntrusted)
        #expect(error?.localizedDescription.contains("not trusted") == true, "\(String(describing: error))")
    }

    @Test func theConfiguredAuthorityFileIsTrusted() async throws {
        let (data, response) = try await withCurlTransport(try trusting()) { try await $0.send(try request()) }
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "{\"ok\":true}")
    }

    @Test func theConfiguredAuthorityAsPEMDataIsTrusted() async throws {
        let pem = try Data(contentsOf: try #require(TLSFixture.certificateAuthorityFile))
        let (_, response) = try await withCurlTransport(.init(certificateAuthority: .pem(pem))) { try await $0.send(try request()) }
        #expect(response.statusCode == 200)
    }

    @Test func theServersOwnPinIsAccepted() async throws {
        let pin = try #require(TLSFixture.pin)
        let (_, response) = try await withCurlTransport(try trusting(pins: [pin])) { try await $0.send(try request()) }
        #expect(response.statusCode == 200)
    }

    @Test func anotherPinIsRefusedAsUntrusted() async throws {
        let wrong = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let configuration = try trusting(pins: [wrong])
        let error = await urlError { try await withCurlTransport(configuration) { try await $0.send(try request()) } }
        #expect(error?.code == .serverCertificateUntrusted)
        #expect(error?.localizedDescription.contains("pinned") == true)
    }

    @Test func aPinMatchesWhenItIsAmongSeveral() async throws {
        let pin = try #require(TLSFixture.pin)
        let other = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
        let (_, response) = try await withCurlTransport(try trusting(pins: [other, pin])) { try await $0.send(try request()) }
        #expect(response.statusCode == 200)
    }

    /// Over TLS libcurl 7.88 sends a request's head through its upload buffer, and a head more
    /// than twice that buffer stalled after its first part (curl#6460): a 140 KiB head waited
    /// for the deadline. CurlTransport now gives every head a buffer it fits in, and the
    /// smallest one (16 KiB) only to a head that fits there. The deadline is 30 s and the bound
    /// 15 s: the fresh-clone run at c80567e stalled every test of the parallel phase for about
    /// 5 s at its start, and the 1,000 KiB case took 5.45 s against a bound of 5 s (deadline 10).
    @Test(arguments: [40, 140, 1000])
    func aLargeRequestHeadGoesWholeOverTLS(kibibytes: Int) async throws {
        var request = try request("/echo")
        request.timeoutInterval = 30
        let value = String(repeating: "v", count: kibibytes * 1024)
        request.setValue(value, forHTTPHeaderField: "X-Large")
        // No time bound: a head that never went whole would end at the request's deadline with
        // an error, not with the 200 and the echoed header below.
        let (data, response) = try await withCurlTransport(try trusting()) { try await $0.send(request) }
        #expect(response.statusCode == 200)
        let headers = try #require(try jsonObject(data)["headers"] as? [String: Any])
        #expect((headers.first { $0.key.lowercased() == "x-large" }?.value as? String)?.count == value.count)
    }

    @Test func uploadsAndDownloadsWorkOverTLS() async throws {
        let body = Data(count: 500_000)
        let upload = try request("/upload").withMethod("POST")
        let (data, _) = try await withCurlTransport(try trusting()) {
            try await $0.upload(upload, body: .data(body), progress: { _, _ in })
        }
        #expect(try jsonObject(data)["size"] as? Int == body.count)
    }
}

extension URLRequest {
    fileprivate func withMethod(_ method: String) -> URLRequest {
        var request = self
        request.httpMethod = method
        return request
    }
}
