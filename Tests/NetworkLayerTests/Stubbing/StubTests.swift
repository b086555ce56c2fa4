import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint whose sample response mirrors what httpbin answers, for stub parity.
struct StatusEndpoint: EndPointType {
    let status: Int
    var baseURL: URL { TestServers.httpbin ?? URL(fileURLWithPath: "/no-httpbin") }
    var path: String { "status/\(status)" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }
    var sampleResponse: StubResponse { StubResponse(statusCode: status, data: Data()) }
}

@Suite("Stubbing")
struct StubTests {
    private static func outcome(_ router: Router<StatusEndpoint>, _ endpoint: StatusEndpoint) async -> Result<Response, NetworkError> {
        do { return .success(try await router.request(endpoint)) } catch { return .failure(error) }
    }

    /// The same endpoint, real and stubbed: the same result shape, status, body and request.
    @Test(.needsHTTPBin, arguments: [200, 404, 500])
    func stubbedAndRealGiveTheSameShapes(status: Int) async throws {
        let real = Router<StatusEndpoint>()
        let stubbed = Router<StatusEndpoint>(stubBehavior: { _ in .immediate })
        let endpoint = StatusEndpoint(status: status)
        let realOutcome = await Self.outcome(real, endpoint)
        let stubOutcome = await Self.outcome(stubbed, endpoint)
        switch (realOutcome, stubOutcome) {
        case (.success(let a), .success(let b)):
            #expect(a.statusCode == b.statusCode)
            #expect(a.data == b.data)
            #expect(a.request.url == b.request.url)
        case (.failure(.unacceptableStatusCode(let a)), .failure(.unacceptableStatusCode(let b))):
            #expect(a.statusCode == status && b.statusCode == status)
            #expect(a.data == b.data)
            #expect(a.request.url == b.request.url)
            #expect(a.request.httpMethod == b.request.httpMethod)
        default:
            Issue.record("different shapes: real \(realOutcome), stubbed \(stubOutcome)")
        }
    }

    @Test(.needsFixtureServer) func cancellingGivesTheSameErrorStubbedAndReal() async throws {
        let real = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"))
        // Answers that take far longer than the cancellation, or never come (the fixture's hang):
        // the parallel phase once held this task for over 5 s on 2 cores, and a 5 s answer came
        // first (2026-11-26).
        let stubbed = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"), stubBehavior: { _ in .delayed(seconds: 30) })
        for router in [real, stubbed] {
            let counter = CompletionCounter()
            let handle = router.request(.fixture("hang", timeout: 60)) { counter.record($0) }
            try await Task.sleep(nanoseconds: 200_000_000)
            handle.cancel()
            #expect(await eventually { counter.count == 1 })
            try await Task.sleep(nanoseconds: 100_000_000)
            #expect(counter.count == 1)
            #expect(counter.first?.isCancelled == true)
        }
    }

    @Test func delayedStubWaitsThenAnswers() async throws {
        struct Sample: EndPointType {
            var baseURL: URL { URL(string: "https://example.invalid")! }
            var path: String { "movies" }
            var httpMethod: HTTPMethod { .get }
            var task: HTTPTask { .request }
            var headers: HTTPHeaders? { nil }
            var sampleData: Data { Data(#"{"page":1}"#.utf8) }
        }
        let router = Router<Sample>(stubBehavior: { _ in .delayed(seconds: 0.2) })
        let started = Date()
        let response = try await router.request(Sample())
        #expect(Date().timeIntervalSince(started) >= 0.19)
        #expect(response.text == #"{"page":1}"#)
        #expect(response.statusCode == 200)
        #expect(response.request.url?.absoluteString == "https://example.invalid/movies")
    }

    @Test func stubTransportDecidesPerRequest() async throws {
        let transport = StubTransport { request in
            request.url?.path == "/api/a" ? StubResponse(headers: ["X-Stub": "a"], data: Data("A".utf8)) : StubResponse(statusCode: 404)
        }
        let router = Router<TestEndpoint>(transport: transport)
        let response = try await router.request(.offline("a"))
        #expect(response.text == "A")
        #expect(response.header("x-stub") == "a")
        await #expect(throws: NetworkError.self) { try await router.request(.offline("b")) }
    }
}
