// Code of the DocC article "Testing with stubs"; see GettingStartedSnippets.swift. Unlike the
// other articles' code, these tests run (with `swift test`): a stub sends nothing.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer
import Testing

// snippet.start sample-data
enum CatalogApi: EndPointType {
    case popular
    case missing

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { self == .popular ? "movie/popular" : "movie/0" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }

    var sampleData: Data { Data(#"{"page":1,"results":[{"id":550,"title":"Fight Club"}]}"#.utf8) }

    var sampleResponse: StubResponse {
        switch self {
        case .popular: return StubResponse(statusCode: 200, data: sampleData)
        case .missing: return StubResponse(statusCode: 404, data: Data(#"{"status_code":34}"#.utf8))
        }
    }
}
// snippet.end

struct DocSnippetStubTests {
    @Test func sampleResponsesDecodeAndFailLikeRealOnes() async throws {
        // snippet.start stub-behavior
        let router = Router<CatalogApi>(stubBehavior: { _ in .immediate })

        let page = try await router.request(.popular, as: MoviePage.self)
        #expect(page.results.first?.title == "Fight Club")

        // A stubbed 404 fails exactly as a real one would.
        await #expect(throws: NetworkError.self) {
            try await router.request(.missing)
        }
        // snippet.end
    }

    @Test func delayedStubsCanBeCancelled() async throws {
        // snippet.start delayed-stub
        let router = Router<CatalogApi>(stubBehavior: { endpoint in
            endpoint == .popular ? .delayed(seconds: 5) : .never
        })
        let task = Task { try await router.request(.popular) }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("expected a cancellation")
        } catch NetworkError.cancelled {
            // as for a real request
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        // snippet.end
    }

    @Test func stubTransportAnswersPerRequest() async throws {
        // snippet.start stub-transport
        let transport = StubTransport { request in
            if request.url?.path == "/3/movie/popular" {
                return StubResponse(
                    headers: ["Content-Type": "application/json"],
                    data: Data(#"{"page":1,"results":[]}"#.utf8))
            }
            return StubResponse(statusCode: 404)
        }
        let router = Router<MovieApi>(transport: transport)

        let page = try await router.request(.popular(page: 1), as: MoviePage.self)
        #expect(page.results.isEmpty)

        do {
            _ = try await router.request(.details(id: 1))
            Issue.record("expected a 404")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 404)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        // snippet.end
    }

    @Test func stubTransportSeesTheRequestThatWouldBeSent() async throws {
        // snippet.start stub-inspect
        let sent = Sent()
        let router = Router<MovieApi>(
            transport: StubTransport { request in
                await sent.record(request)
                return StubResponse(statusCode: 201)
            })
        _ = try await router.request(.rate(id: 550, value: 8.5))

        let request = try #require(await sent.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/550/rating")
        #expect(request.httpBody == Data(#"{"value":8.5}"#.utf8))
        // snippet.end
    }
}

// snippet.start sent-actor
actor Sent {
    private(set) var requests: [URLRequest] = []
    func record(_ request: URLRequest) { requests.append(request) }
}
// snippet.end

// snippet.start recording-transport
struct RecordingTransport: HTTPTransport {
    let base: any HTTPTransport
    func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
        print(request.httpMethod ?? "GET", request.url?.path ?? "")
        return try await base.execute(request, body: body, progress: progress)
    }
    func headersAdded(to request: URLRequest) -> HTTPHeaders? { base.headersAdded(to: request) }
}
// snippet.end

struct DocSnippetRecordingTransportTests {
    @Test func aRecordingTransportForwardsTheOneCall() async throws {
        let stub = StubTransport(StubResponse(data: CatalogApi.popular.sampleData))
        let router = Router<CatalogApi>(transport: RecordingTransport(base: stub))
        let page = try await router.request(.popular, as: MoviePage.self)
        #expect(page.results.first?.title == "Fight Club")
    }
}
