import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router's ``EndpointMapping`` and ``MultiTarget``, proven by what the fixture server's
/// `/echo` received.
@Suite("Endpoint mapping and MultiTarget", .needsFixtureServer)
struct EndpointMappingTests {
    /// The request as `/echo` saw it.
    struct Echo: Decodable {
        let method: String
        let target: String
        let headers: [String: String]
    }

    /// Keeps the targets plugins were given, and the URL of the request they prepared.
    final class TargetLog: PluginType, @unchecked Sendable {
        private let lock = NSLock()
        private var targets: [any EndPointType] = []
        private var urls: [URL?] = []
        func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            lock.withLock { urls.append(request.url) }
            return request
        }
        func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
            lock.withLock { targets.append(context.target) }
        }
        var lastTarget: (any EndPointType)? { lock.withLock { targets.last } }
        var lastURL: URL? { lock.withLock { urls.last ?? nil } }
    }

    /// An endpoint whose base URL is a production host the tests must never reach.
    private func production(_ path: String = "echo", task: HTTPTask = .request, headers: HTTPHeaders? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: URL(string: "https://production.invalid/v1")!, path: path, task: task, headers: headers)
    }

    private func fixture() throws -> URL {
        try #require(TestServers.fixture)
    }

    private func router(
        _ transport: TestTransport, mapping: EndpointMapping<TestEndpoint>, plugins: [any PluginType] = []
    ) -> Router<TestEndpoint> {
        Router(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: plugins, mapping: mapping)
    }

    @Test(arguments: TestTransport.all)
    func anEnvironmentReplacesEveryBaseURL(_ transport: TestTransport) async throws {
        let router = router(transport, mapping: .environment(try fixture()))
        let echo = try await router.request(production(), as: Echo.self)
        #expect(echo.target == "/echo")
        #expect(echo.method == "GET")
    }

    @Test(arguments: TestTransport.all)
    func headersAreAddedOverTheEndpointsWhateverTheirCase(_ transport: TestTransport) async throws {
        let mapping = EndpointMapping<TestEndpoint>.environment(try fixture()).then { $0.adding(headers: ["X-Client": "ios/2"]) }
        let echo = try await router(transport, mapping: mapping)
            .request(production(headers: ["x-client": "ios/1", "X-Kept": "yes"]), as: Echo.self)
        #expect(echo.headers["x-client"] == "ios/2")
        #expect(echo.headers["x-kept"] == "yes")
    }

    @Test(arguments: TestTransport.all)
    func urlParametersJoinTheTasksOwnWhateverTheTask(_ transport: TestTransport) async throws {
        let mapping = EndpointMapping<TestEndpoint>.environment(try fixture()).then { $0.adding(urlParameters: ["api_key": "k1"]) }
        let router = router(transport, mapping: mapping)
        let withParameters = try await router.request(
            production(task: .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": 2])), as: Echo.self)
        #expect(withParameters.target == "/echo?api_key=k1&page=2")
        var posting = production(task: .requestData(Data("x".utf8), contentType: "text/plain"))
        posting.httpMethod = .post
        let withoutSlot = try await router.request(posting, as: Echo.self)
        #expect(withoutSlot.target == "/echo?api_key=k1")
    }

    @Test func requestBuilderAppliesAMappedEndpointsParametersToo() throws {
        let mapped = MappedEndpoint(production(task: .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": 2])))
            .adding(urlParameters: ["page": 3, "language": "fr"])
        let request = try RequestBuilder.makeRequest(for: mapped)
        #expect(request.url?.absoluteString == "https://production.invalid/v1/echo?language=fr&page=3")
    }

    @Test(arguments: TestTransport.all)
    func theMappedTimeoutIsTheDeadline(_ transport: TestTransport) async throws {
        let mapping = EndpointMapping<TestEndpoint>.environment(try fixture()).then { $0.replacing(timeout: 0.3) }
        // The drip takes 5 s and the endpoint's own timeout is 10 s: only the mapped one gives 0.3.
        do {
            _ = try await router(transport, mapping: mapping).request(production("drip?bytes=5"))
            Issue.record("A 5 s drip finished under a 0.3 s deadline")
        } catch NetworkError.timedOut(let after) {
            #expect(after == 0.3)
        } catch {
            Issue.record("Expected a timeout, got \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func theMappedStatusCodesAreTheOnesAccepted(_ transport: TestTransport) async throws {
        let mapping = EndpointMapping<TestEndpoint>.environment(try fixture()).then { mapped in
            var accepting = mapped
            accepting.acceptableStatusCodes = [404]
            return accepting
        }
        let response = try await router(transport, mapping: mapping).request(production("status/404"))
        #expect(response.statusCode == 404)
    }

    @Test(arguments: TestTransport.all)
    func pluginsAreGivenTheOriginalEndpointAndTheMappedRequest(_ transport: TestTransport) async throws {
        let log = TargetLog()
        let fixture = try fixture()
        _ = try await router(transport, mapping: .environment(fixture), plugins: [log]).request(production())
        let target = try #require(log.lastTarget as? TestEndpoint)
        #expect(target.baseURL.host == "production.invalid")
        #expect(log.lastURL?.host == fixture.host)
        #expect(log.lastURL?.port == fixture.port)
    }

    @Test func stubbingIsDecidedOnTheOriginalAndAnswersWithTheMappedSample() async throws {
        let mapping = EndpointMapping<TestEndpoint> { endpoint in
            var mapped = MappedEndpoint(endpoint)
            mapped.sampleResponse = StubResponse(statusCode: 201, data: Data("mapped".utf8))
            return mapped
        }
        let router = Router<TestEndpoint>(
            callbackQueue: DispatchQueue(label: "tests"), stubBehavior: { $0.path == "stubbed" ? .immediate : .never },
            mapping: mapping)
        let response = try await router.request(production("stubbed"))
        #expect(response.statusCode == 201)
        #expect(response.text == "mapped")
    }

    // MARK: - MultiTarget

    enum Movies: EndPointType {
        case echo
        var baseURL: URL { TestServers.fixture ?? URL(fileURLWithPath: "/no-fixture") }
        var path: String { "echo" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["api": "movies"]) }
        var headers: HTTPHeaders? { nil }
        var authorizationType: AuthorizationType? { .plugin }
    }

    enum Accounts: EndPointType {
        case me
        var baseURL: URL { TestServers.fixture ?? URL(fileURLWithPath: "/no-fixture") }
        var path: String { "echo" }
        var httpMethod: HTTPMethod { .post }
        var task: HTTPTask { .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["api": "accounts"]) }
        var headers: HTTPHeaders? { ["X-Account": "me"] }
    }

    @Test(arguments: TestTransport.all)
    func oneRouterSendsTheEndpointsOfSeveralAPIs(_ transport: TestTransport) async throws {
        let log = TargetLog()
        let router = Router<MultiTarget>(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [log])
        let movies = try await router.request(MultiTarget(Movies.echo), as: Echo.self)
        #expect(movies.target == "/echo?api=movies")
        #expect(movies.method == "GET")
        #expect(log.lastTarget is Movies)
        let accounts = try await router.request(MultiTarget(Accounts.me), as: Echo.self)
        #expect(accounts.target == "/echo?api=accounts")
        #expect(accounts.method == "POST")
        #expect(accounts.headers["x-account"] == "me")
        #expect(log.lastTarget is Accounts)
    }

    enum Public: EndPointType {
        case login
        var baseURL: URL { TestServers.fixture ?? URL(fileURLWithPath: "/no-fixture") }
        var path: String { "echo" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
        var authorizationType: AuthorizationType? { nil }
    }

    @Test(arguments: TestTransport.all)
    func eachWrappedEndpointKeepsItsOwnAuthorization(_ transport: TestTransport) async throws {
        let router = Router<MultiTarget>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [AccessTokenPlugin(token: { "t0ken" })])
        let login = try await router.request(MultiTarget(Public.login), as: Echo.self)
        #expect(login.headers["authorization"] == nil)
        let movies = try await router.request(MultiTarget(Movies.echo), as: Echo.self)
        #expect(movies.headers["authorization"] == "Bearer t0ken")
    }

    @Test func pluginsSeeThroughEveryLayerOfWrapping() {
        let twice = MultiTarget(MultiTarget(MappedEndpoint(Accounts.me)))
        #expect(RequestContext.unwrapped(twice) is Accounts)
    }
}
