import Foundation
import TestSupport
import Testing
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayer

/// A head read off the wire answers the router from its parts, and makes its `HTTPURLResponse`
/// once, with every field, when someone asks for it.
@Suite("Response head")
struct ResponseHeadTests {
    private let url = URL(string: "http://127.0.0.1/movies?page=1")!

    private func received(_ fields: [String: String], status: Int = 200) throws -> ResponseHead {
        try #require(ResponseHead(url: url, statusCode: status, httpVersion: "HTTP/1.1", fields: fields))
    }

    @Test func theStatusAndFieldsAnswerWithoutAResponse() throws {
        let head = try received(["content-type": "application/json", "ETag": "\"7\""], status: 203)
        #expect(head.statusCode == 203)
        #expect(head.value(named: "Content-Type") == "application/json")
        #expect(head.value(named: "etag") == "\"7\"")
        #expect(head.value(named: "Location") == nil)
        #expect(!head.isMade)
    }

    @Test func theResponseIsMadeOnceWithEveryField() throws {
        let head = try received(["content-type": "application/json", "X-Request-ID": "abc", "Cache-Control": "max-age=60"])
        #expect(!head.isMade)
        let response = head.httpResponse
        #expect(head.isMade)
        #expect(response === head.httpResponse)
        #expect(response.statusCode == 200)
        #expect(response.url == url)
        #expect(response.allHeaderFields.count == 3)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(response.value(forHTTPHeaderField: "x-request-id") == "abc")
        #expect(response.mimeType == "application/json")
    }

    /// Made from many threads at once, it is still one response (and, under ThreadSanitizer,
    /// made without a race).
    @Test func threadsAskingAtOnceGetTheSameResponse() async throws {
        let head = try received(["Content-Type": "text/plain", "Content-Length": "5"])
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<32 { group.addTask { ObjectIdentifier(head.httpResponse) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(head.httpResponse.expectedContentLength == 5)
    }

    /// Through the router: a stub's fields reach `Response.header(_:)` and `httpResponse` alike.
    @Test func aStubbedResponseKeepsItsFieldsBothWays() async throws {
        let router = Router<StubbedHeadEndpoint>(stubBehavior: { _ in .immediate })
        let response = try await router.request(StubbedHeadEndpoint())
        #expect(response.statusCode == 201)
        #expect(response.header("x-total-count") == "42")
        #expect(!response.head.isMade)
        #expect(response.httpResponse.value(forHTTPHeaderField: "X-Total-Count") == "42")
        #expect(response.head.isMade)
        #expect(response.httpResponse.statusCode == 201)
    }

    /// Over the wire, a router without stages answers from the head as received: CurlTransport's
    /// response has made no `HTTPURLResponse` by the time the caller has it (URLSession's was made
    /// by Foundation), and both give the same fields either way.
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func aPlainRequestMakesNoResponseObjectUntilAsked(_ transport: TestTransport) async throws {
        let fixture = try #require(TestServers.fixture)
        let router = Router<StubbedHeadEndpoint>(transport: transport.make())
        let response = try await router.request(StubbedHeadEndpoint(baseURL: fixture, path: "fast"))
        #expect(response.statusCode == 200)
        #expect(response.head.isMade == (transport == .urlSession))
        #expect(response.header("content-type") == "application/json")
        #expect(response.httpResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(response.header("Content-Length") == response.httpResponse.value(forHTTPHeaderField: "content-length"))
        #expect(response.head.isMade)
    }

    /// A stub's dictionary can spell one field two ways; Foundation keeps one of them at random,
    /// so the stub joins them itself, in the order of their spellings (RFC 9110 §5.3), and
    /// `header(_:)` and `httpResponse` give the same value (found from outside, 2026-11-26:
    /// 7 of 16 such fields disagreed).
    @Test func aStubsSpellingsOfOneFieldAreJoinedOnce() async throws {
        let endpoint = StubbedHeadEndpoint(fields: ["ETag": "a", "etag": "b", "Content-Type": "text/plain"])
        let router = Router<StubbedHeadEndpoint>(stubBehavior: { _ in .immediate })
        let response = try await router.request(endpoint)
        #expect(response.header("ETag") == "a, b")
        #expect(response.header("etag") == "a, b")
        #expect(response.header("content-type") == "text/plain")
        #expect(response.httpResponse.allHeaderFields.count == 2)
        #expect(response.httpResponse.value(forHTTPHeaderField: "ETag") == "a, b")
    }

    @Test func aStubsHeaderAgreesWithItsResponseForEverySpelling() async throws {
        var fields: HTTPHeaders = [:]
        for index in 0..<16 {
            fields["Tag\(index)"] = "upper"
            fields["tag\(index)"] = "lower"
        }
        let endpoint = StubbedHeadEndpoint(fields: fields)
        let router = Router<StubbedHeadEndpoint>(stubBehavior: { _ in .immediate })
        let response = try await router.request(endpoint)
        let disagreeing = (0..<16).map { "Tag\($0)" }.filter {
            response.header($0) != response.httpResponse.value(forHTTPHeaderField: $0)
        }
        #expect(disagreeing.isEmpty)
        #expect(response.header("tag3") == "upper, lower")
    }

    @Test func aResponseMadeByFoundationIsKeptAsItIs() throws {
        let made = try #require(HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: ["Retry-After": "3"]))
        let response = Response(request: URLRequest(url: url), httpResponse: made, data: Data())
        #expect(response.httpResponse === made)
        #expect(response.statusCode == 404)
        #expect(response.header("retry-after") == "3")
    }
}

private struct StubbedHeadEndpoint: EndPointType {
    var baseURL = URL(string: "https://api.example.invalid")!
    var path = "items"
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }
    var fields: HTTPHeaders = ["X-Total-Count": "42"]
    var sampleResponse: StubResponse { StubResponse(statusCode: 201, headers: fields, data: Data("{}".utf8)) }
}
