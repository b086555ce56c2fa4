import Foundation
import NetworkLayer
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayerCurl

/// The upload buffer each request gets: one its head fits in (libcurl sends a head over TLS
/// through it, and stalled on one more than twice its size), the smallest for a request
/// without a body whose head fits there.
@Suite("CurlTransport's upload buffer")
struct CurlUploadBufferTests {
    private func curlRequest(_ url: String, header: Int = 0, body: Data? = nil) throws -> CurlRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        if header > 0 { request.setValue(String(repeating: "v", count: header), forHTTPHeaderField: "X-Large") }
        return try CurlRequest(request, body: body.map { .data($0) })
    }

    @Test func aSmallRequestWithoutABodyGetsTheSmallest() throws {
        #expect(try CurlEasyTransfer.uploadBufferSize(for: curlRequest("https://example.invalid/x")) == 16 << 10)
    }

    @Test func aSmallRequestWithABodyKeepsTheDefault() throws {
        let request = try curlRequest("https://example.invalid/x", body: Data(count: 10))
        #expect(try CurlEasyTransfer.uploadBufferSize(for: request) == 64 << 10)
    }

    @Test(arguments: [20 << 10, 100 << 10, 1000 << 10])
    func aLargerHeadGetsABufferItFitsIn(header: Int) throws {
        let size = try CurlEasyTransfer.uploadBufferSize(for: curlRequest("https://example.invalid/x", header: header))
        #expect(size > header)
        #expect(size <= 2 << 20)
    }

    /// libcurl builds a head of at most 1 MiB and fails a longer one with CURLE_OUT_OF_MEMORY,
    /// which read as "a header line of the response is too long".
    @Test(arguments: ["https://example.invalid/x", "http://example.invalid/x"])
    func aHeadOverOneMebibyteIsRefused(url: String) throws {
        #expect {
            try CurlEasyTransfer.uploadBufferSize(for: curlRequest(url, header: (1 << 20) + 1))
        } throws: { error in
            (error as? URLError)?.code == .dataLengthExceedsMaximum
        }
    }
}
