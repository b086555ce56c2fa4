import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests and responses as they are on the wire. Tests that take `TestTransport` run over both
/// transports and assert what they have in common; the others state what only CurlTransport does.
@Suite("CurlTransport round trips")
struct CurlRoundTripTests {
    // MARK: Requests

    @Test(.needsHTTPBin, arguments: ["POST", "PUT", "PATCH", "DELETE"])
    func aMethodWithABodySendsItsMethodAndBody(_ method: String) async throws {
        let body = Data("name=value&x=1".utf8)
        var request = httpbinRequest("/anything", method: method, body: body)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await CurlTransport().send(request)
        let echo = try jsonObject(data)
        #expect(response.statusCode == 200)
        #expect(echo["method"] as? String == method)
        #expect(echo["data"] as? String == "name=value&x=1")
    }

    @Test(.needsHTTPBin, arguments: ["GET", "DELETE"])
    func aMethodWithoutABodySendsItsMethodAndNoBody(_ method: String) async throws {
        let (data, response) = try await CurlTransport().send(httpbinRequest("/anything", method: method))
        #expect(response.statusCode == 200)
        let echo = try jsonObject(data)
        #expect(echo["method"] as? String == method)
        #expect(echo["data"] as? String == "")
    }

    @Test(.needsFixtureServer, arguments: ["OPTIONS", "PROPFIND", "QUERY"])
    func anyOtherMethodIsSentAsItIs(_ method: String) async throws {
        let (data, _) = try await CurlTransport().send(fixtureRequest("/sequence/method-\(UUID().uuidString)", method: method))
        #expect(try jsonObject(data)["method"] as? String == method)
    }

    @Test(.needsHTTPBin)
    func headReturnsTheHeadWithoutABody() async throws {
        let (data, response) = try await CurlTransport().send(httpbinRequest("/get", method: "HEAD"))
        #expect(response.statusCode == 200)
        #expect(data.isEmpty)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(.needsHTTPBin)
    func headersAreSentAsGivenWithNothingAddedButHostContentLengthAndAcceptEncoding() async throws {
        var request = httpbinRequest("/anything", method: "POST", body: Data(repeating: 0x61, count: 2_000_000))
        request.setValue("Bearer t0k", forHTTPHeaderField: "Authorization")
        request.setValue("yes", forHTTPHeaderField: "X-Custom")
        let (data, _) = try await CurlTransport().send(request)
        let headers = try #require(try jsonObject(data)["headers"] as? [String: String])
        // A 2 MB POST: libcurl would add "Expect: 100-continue", a form Content-Type and Accept.
        // Accept-Encoding is asked for on purpose: the body is decoded, as URLSession does.
        #expect(Set(headers.keys) == ["Host", "Authorization", "X-Custom", "Content-Length", "Accept-Encoding"])
        #expect(headers["Content-Length"] == "2000000")
        #expect(headers["Authorization"] == "Bearer t0k")
    }

    /// FoundationNetworking adds headers of its own (`Accept`, `Accept-Encoding`,
    /// `Accept-Language`, `Connection`, `User-Agent`); CurlTransport adds none but `Host` and
    /// `Accept-Encoding`.
    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func theHeadersATransportAddsToAPlainGET(_ transport: TestTransport) async throws {
        let (data, _) = try await transport.make().send(httpbinRequest("/headers"))
        let headers = try #require(try jsonObject(data)["headers"] as? [String: String])
        switch transport {
        case .curl: #expect(Set(headers.keys) == ["Host", "Accept-Encoding"])
        case .urlSession:
            #expect(Set(headers.keys) == ["Host", "Accept", "Accept-Encoding", "Accept-Language", "Connection", "User-Agent"])
        }
    }

    @Test(.needsHTTPBin)
    func credentialsInTheURLAreNotSent() async throws {
        let base = try #require(TestServers.httpbin)
        let url = try #require(URL(string: "http://user:secret@\(base.host ?? ""):\(base.port ?? 80)/headers"))
        let (data, _) = try await CurlTransport().send(URLRequest(url: url))
        let headers = try #require(try jsonObject(data)["headers"] as? [String: String])
        #expect(headers["Authorization"] == nil)
    }

    @Test(.needsFixtureServer)
    func aHeaderNameWithCRLFIsRefusedBeforeSending() async throws {
        var request = fixtureRequest("/fast")
        request.setValue("1", forHTTPHeaderField: "X-Name\r\nX-Evil")
        await #expect(throws: RequestBuildingError.self) { try await CurlTransport().send(request) }
    }

    // MARK: Responses

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func repeatedResponseHeadersAreJoinedWithCommas(_ transport: TestTransport) async throws {
        let (_, response) = try await transport.make().send(fixtureRequest("/repeated-headers"))
        #expect(response.value(forHTTPHeaderField: "X-Repeated") == "first, second")
        #expect(response.value(forHTTPHeaderField: "link") == "</a>; rel=next, </b>; rel=last")
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func anInterimResponseIsSkippedForTheFinalOne(_ transport: TestTransport) async throws {
        let (data, response) = try await transport.make().send(fixtureRequest("/early-hints"))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Link") == nil)
        #expect(String(decoding: data, as: UTF8.self) == "{\"ok\":true}")
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func anyStatusIsReturnedWithItsBody(_ transport: TestTransport) async throws {
        let (data, response) = try await transport.make().send(fixtureRequest("/status/418?body=teapot"))
        #expect(response.statusCode == 418)
        #expect(String(decoding: data, as: UTF8.self) == "teapot")
    }

    /// Neither transport follows a redirect: the router does, by its `RedirectPolicy`.
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aRedirectIsReturnedAsItIs(_ transport: TestTransport) async throws {
        let (_, response) = try await transport.make().send(fixtureRequest("/redirect-loop"))
        #expect(response.statusCode == 302)
        #expect(response.value(forHTTPHeaderField: "Location") == "/redirect-loop")
    }

    /// How long it takes is checked by CurlTimeoutTests, which Scripts/test runs on its own.
    @Test(.needsFixtureServer)
    func aBasicAuthChallengeComesBackWithItsBody() async throws {
        let (data, response) = try await CurlTransport().send(fixtureRequest("/basic-auth"))
        #expect(response.statusCode == 401)
        #expect(try jsonObject(data)["error"] as? String == "auth required")
    }

    @Test(.needsFixtureServer)
    func aResponseLargerThanTheLimitFails() async throws {
        let transport = CurlTransport(configuration: .init(maximumResponseSize: 10_000))
        let error = await urlError { try await transport.send(fixtureRequest("/bytes/50000")) }
        #expect(error?.code == .dataLengthExceedsMaximum)
    }

    @Test(.needsFixtureServer)
    func theRouterSendsThroughCurlTransport() async throws {
        struct Fast: EndPointType {
            let baseURL: URL
            var path: String { "fast" }
            var httpMethod: HTTPMethod { .get }
            var task: HTTPTask { .request }
            var headers: HTTPHeaders? { nil }
        }
        let server = try #require(TestServers.fixture)
        let router = Router<Fast>(transport: CurlTransport())
        let response = try await router.request(Fast(baseURL: server))
        #expect(response.statusCode == 200)
        #expect(response.text == "{\"ok\":true}")
    }
}
