import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One rule for header names everywhere: compared case-insensitively, ASCII letters only.
@Suite("Header names")
struct HeaderNameTests {
    @Test func onlyASCIILettersFold() {
        #expect(HeaderName.same("X-Api-Key", "x-api-key"))
        #expect(!HeaderName.same("X-Api-Key", "X_Api_Key"))
        // "@" is 0x40, "`" is 0x60: they differ by the case bit, but are not letters.
        #expect(!HeaderName.same("a@b", "a`b"))
        #expect(!HeaderName.same("K", "\u{212A}"))  // the Kelvin sign folds to "k" in Unicode
        #expect(!HeaderName.same("Accept", "Accept-Encoding"))
    }

    @Test func anEndpointsHeadersAndItsTasksAreOneFieldPerName() throws {
        let endpoint = TestEndpoint.offline(
            "anything",
            task: .requestParametersAndHeaders(
                bodyParameters: nil, bodyEncoding: .json, urlParameters: nil, additionalHeaders: ["accept": "text/csv"]),
            headers: ["Accept": "application/json"])
        let request = try RequestBuilder.makeRequest(for: endpoint)
        let sent = try #require(request.allHTTPHeaderFields)
        #expect(sent.keys.filter { $0.lowercased() == "accept" }.count == 1)
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv")
    }

    @Test func headersAddedByAMappingReplaceTheEndpointsWhateverTheirCase() {
        let endpoint = TestEndpoint.offline("anything", headers: ["X-Client": "ios/1", "X-Kept": "yes"])
        let mapped = MappedEndpoint(endpoint).adding(headers: ["x-client": "ios/2"])
        #expect(mapped.headers == ["x-client": "ios/2", "X-Kept": "yes"])
    }

    /// The session's additional headers count for the cache key only where the request does
    /// not set the same field itself, in any case.
    @Test func aSessionsAdditionalHeadersAreAddedUnlessTheRequestHasThem() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-App": "demo/1", "Accept": "text/plain"]
        configuration.httpShouldSetCookies = false
        let transport = URLSessionTransport(configuration: configuration)
        var request = URLRequest(url: try #require(URL(string: "https://example.invalid/x")))
        request.allHTTPHeaderFields = ["accept": "application/json"]
        #expect(transport.headersAdded(to: request) == ["X-App": "demo/1"])
    }

    @Test func aResponseHeaderIsFoundWhateverItsCase() throws {
        let response = try Response(statusCode: 200, headers: ["Content-Type": "application/json"])
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("CONTENT-TYPE") == "application/json")
        #expect(response.header("Content-Length") == nil)
    }
}
