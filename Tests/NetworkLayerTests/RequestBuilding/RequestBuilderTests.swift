import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Endpoint → URLRequest, without a network.
@Suite("Request building")
struct RequestBuilderTests {
    private func url(_ base: String, _ path: String) throws -> String {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: base)), path: path)
        return try #require(try RequestBuilder.makeRequest(for: endpoint).url?.absoluteString)
    }

    private func buildError(_ endpoint: TestEndpoint) -> RequestBuildingError? {
        do {
            _ = try RequestBuilder.makeRequest(for: endpoint)
            return nil
        } catch {
            guard case .invalidRequest(let reason) = error else { return nil }
            return reason
        }
    }

    @Test(arguments: [
        ("https://api.example.com/3", "movie/popular"),
        ("https://api.example.com/3/", "movie/popular"),
        ("https://api.example.com/3", "/movie/popular"),
        ("https://api.example.com/3/", "/movie/popular"),
    ])
    func oneSlashBetweenBaseAndPath(base: String, path: String) throws {
        #expect(try url(base, path) == "https://api.example.com/3/movie/popular")
    }

    @Test func hostOnlyBase() throws {
        #expect(try url("https://api.example.com", "status") == "https://api.example.com/status")
    }

    @Test func emptyPathKeepsTheBase() throws {
        #expect(try url("https://api.example.com/3", "") == "https://api.example.com/3")
    }

    @Test func trailingSlashOfThePathIsKept() throws {
        #expect(try url("https://api.example.com", "items/") == "https://api.example.com/items/")
    }

    @Test func queryInThePathIsAQueryNotPercent3F() throws {
        #expect(try url("https://api.example.com/3", "search?q=x&lang=en") == "https://api.example.com/3/search?q=x&lang=en")
    }

    @Test func queryOfTheBaseComesFirst() throws {
        #expect(try url("https://api.example.com/3?api_key=k", "search?q=x") == "https://api.example.com/3/search?api_key=k&q=x")
    }

    @Test func urlParametersFollowTheQueryOfThePath() throws {
        let endpoint = TestEndpoint(
            baseURL: try #require(URL(string: "https://api.example.com")), path: "search?q=x",
            task: .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": 2]))
        #expect(try RequestBuilder.makeRequest(for: endpoint).url?.absoluteString == "https://api.example.com/search?q=x&page=2")
    }

    @Test func spacesAndUnicodeInThePathAreEscapedAndEscapesKept() throws {
        #expect(try url("https://h.example", "a b/é/%41/100%") == "https://h.example/a%20b/%C3%A9/%41/100%25")
    }

    @Test func pathSegmentKeepsUserDataInOneSegment() throws {
        #expect(try url("https://h.example", "users/\(PathSegment("a/b?c#d"))") == "https://h.example/users/a%2Fb%3Fc%23d")
        #expect(PathSegment("../admin").description == "..%2Fadmin")
        #expect(PathSegment("..").description == "%2E%2E")
    }

    /// A server that decodes before it resolves dot segments (nginx does: `/api/users/` with
    /// `..%2Fadmin` reached its `/api/admin` location, 2026-11-26) climbs out of the path with
    /// the escapes ``PathSegment`` writes for dots, so a path whose segments decode to `.` or
    /// `..` is refused, escaped or not.
    @Test(arguments: ["users/\(PathSegment("../admin"))", "users/\(PathSegment(".."))/x", "users/%2e%2E%5Cadmin", "%2E"])
    func aSegmentThatDecodesToDotsIsRefused(_ path: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "https://h.example/api/")), path: path)
        guard case .invalidPath? = buildError(endpoint) else {
            Issue.record("\(path) was built")
            return
        }
    }

    @Test func fragmentInThePathIsRejected() throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "https://h.example")), path: "a#b")
        #expect(buildError(endpoint) == .invalidPath("a#…", reason: "a \"#\" fragment is never sent to the server"))
    }

    /// Found from outside (2026-11-26): the error showed the whole path, a secret query
    /// parameter or a token in the fragment included, and the base URL's user info when the
    /// joined URL could not be parsed.
    @Test(arguments: [
        ("https://api.example/v1", "search?api_key=s3cr3tpw#top"), ("https://api.example/v1", "x#s3cr3tpw"),
        ("httpx://alice:s3cr3tpw@api.example/v1", "x"), ("httpx://api.example/v1?api_key=s3cr3tpw", "x"),
    ])
    func anUnusablePathOrURLIsShownWithoutItsSecrets(base: String, path: String) async throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: base)), path: path)
        let error = try #require(buildError(endpoint))
        for text in ["\(error)", String(reflecting: error), error.message, "\(NetworkError.invalidRequest(error))"] {
            #expect(!text.contains("s3cr3tpw"), "\(text)")
        }
    }

    @Test func aURLInAnErrorLosesItsUserInfoQueryAndFragment() {
        #expect(ErrorText.url("https://alice:s3cr3tpw@h.example/x?k=v#f") == "https://h.example/x?…")
        #expect(ErrorText.url("http://a@b@h.example") == "http://h.example")
        #expect(ErrorText.url("https://h.example/x@y") == "https://h.example/x@y")
        #expect(ErrorText.url("items/7") == "items/7")
    }

    @Test func baseURLWithoutSchemeOrHostIsRejected() throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "api.example.com/3")), path: "x")
        #expect(buildError(endpoint) == .invalidURL("api.example.com/3"))
    }

    /// The base is read from its bytes, not through `URL.host`: these are the cases where the
    /// two could part.
    @Test(arguments: ["http:///x", "http:x", "https:/x", "httpx://h.example", "htt://h.example", "http://?q", "http://#f"])
    func aBaseWithoutAnAuthorityIsRejected(base: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: base)), path: "x")
        let shown = ["http://?q": "http://?…", "http://#f": "http://#…"][base] ?? base
        #expect(buildError(endpoint) == .invalidURL(shown))
    }

    @Test(arguments: [
        ("http://h.example/b?#frag", "c", "http://h.example/b/c#frag"),
        ("http://h.example/b?q=1#frag", "c?d=2", "http://h.example/b/c?q=1&d=2#frag"),
        // user:password@ becomes an Authorization header (MalformedResponseTests), never stays in the URL.
        ("http://user:pw@h.example:81", "c", "http://h.example:81/c"),
        ("http://[::1]:81/", "/c", "http://[::1]:81/c"),
        ("HTTPS://H.example/B/", "", "https://H.example/B/"),
        ("http://h.example?q", "c", "http://h.example/c?q"),
    ])
    func theBaseIsKeptAsWrittenAroundThePath(base: String, path: String, expected: String) throws {
        #expect(try url(base, path) == expected)
    }

    @Test func methodTimeoutAndCachePolicy() throws {
        var endpoint = TestEndpoint.offline("x", .patch)
        endpoint.timeout = 7
        let request = try RequestBuilder.makeRequest(for: endpoint)
        #expect(request.httpMethod == "PATCH")
        #expect(request.timeoutInterval == 8)
        #expect(request.cachePolicy == .useProtocolCachePolicy)
    }

    @Test(arguments: [0.0, -1.0, Double.nan])
    func invalidTimeoutIsRejected(timeout: Double) throws {
        var endpoint = TestEndpoint.offline()
        endpoint.timeout = timeout
        guard case .invalidTimeout = buildError(endpoint) else {
            Issue.record("expected invalidTimeout for \(timeout)")
            return
        }
    }

    @Test func taskHeadersWinOverEndpointHeadersCaseInsensitively() throws {
        let endpoint = TestEndpoint.offline(
            task: .requestParametersAndHeaders(
                bodyParameters: nil, bodyEncoding: .json, urlParameters: nil,
                additionalHeaders: ["accept": "text/plain", "X-Task": "1"]),
            headers: ["Accept": "application/json", "X-Endpoint": "2"])
        let fields = try RequestBuilder.makeRequest(for: endpoint).allHTTPHeaderFields ?? [:]
        #expect(fields.filter { $0.key.lowercased() == "accept" }.map(\.value) == ["text/plain"])
        #expect(fields["X-Task"] == "1")
        #expect(fields["X-Endpoint"] == "2")
    }

    /// Names are kept as the endpoint writes them, as Apple's Foundation keeps them; on Linux,
    /// `setValue(_:forHTTPHeaderField:)` made `x-api-key` into `X-Api-Key`.
    @Test func headerNamesKeepTheirSpelling() throws {
        let endpoint = TestEndpoint.offline(headers: ["x-api-key": "1", "X-Request-ID": "2", "accept": "text/plain"])
        let fields = try RequestBuilder.makeRequest(for: endpoint).allHTTPHeaderFields ?? [:]
        #expect(fields == ["x-api-key": "1", "X-Request-ID": "2", "accept": "text/plain"])
    }

    @Test(arguments: ["X-Name\r\nX-Evil", "X Name", "X:Name", "", "Ünicode", "X-Name\n"])
    func invalidHeaderNamesAreRejected(name: String) {
        let error = buildError(.offline(headers: [name: "v"]))
        guard case .invalidHeaderName = error else {
            Issue.record("expected invalidHeaderName for \(name.debugDescription), got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: ["a\r\nX-Evil: 1", "a\nb", "a\rb", "a\u{0}b", "a\u{7F}b"])
    func invalidHeaderValuesAreRejectedWithoutEchoingThem(value: String) {
        #expect(buildError(.offline(headers: ["Authorization": value])) == .invalidHeaderValue(name: "Authorization"))
    }

    @Test func headerValuesWithTabsAndUTF8AreAccepted() throws {
        let request = try RequestBuilder.makeRequest(for: TestEndpoint.offline(headers: ["X-Note": "a\tb é"]))
        #expect(request.value(forHTTPHeaderField: "X-Note") == "a\tb é")
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func bodyParametersOnGetOrHeadAreRejected(method: HTTPMethod) {
        let endpoint = TestEndpoint.offline(
            "x", method, task: .requestParameters(bodyParameters: ["a": 1], bodyEncoding: .json, urlParameters: nil))
        #expect(buildError(endpoint) == .bodyNotAllowed(method))
    }

    @Test func rawDataOnGetIsRejected() {
        #expect(buildError(.offline("x", .get, task: .requestData(Data("x".utf8), contentType: nil))) == .bodyNotAllowed(.get))
    }

    @Test func urlParametersOnGetGoToTheQuery() throws {
        let endpoint = TestEndpoint.offline(
            "x", .get, task: .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["b": 2, "a": "x y"]))
        let request = try RequestBuilder.makeRequest(for: endpoint)
        #expect(request.url?.absoluteString == "https://example.invalid/api/x?a=x%20y&b=2")
        #expect(request.httpBody == nil)
    }

    @Test func rawDataWithContentType() throws {
        let request = try RequestBuilder.makeRequest(
            for: TestEndpoint.offline("x", .post, task: .requestData(Data([0, 1, 2]), contentType: "application/octet-stream")))
        #expect(request.httpBody == Data([0, 1, 2]))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    @Test func rawDataKeepsAContentTypeHeader() throws {
        let request = try RequestBuilder.makeRequest(
            for: TestEndpoint.offline(
                "x", .post, task: .requestData(Data("<a/>".utf8), contentType: "text/plain"),
                headers: ["content-type": "application/xml"]))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/xml")
    }

    @Test func encodingErrorsAreRequestBuildingErrors() {
        let endpoint = TestEndpoint.offline(
            "x", .post, task: .requestParameters(bodyParameters: ["ratio": Double.nan], bodyEncoding: .json, urlParameters: nil))
        #expect(buildError(endpoint) == .parameterEncoding(.invalidJSONValue(keyPath: "ratio", reason: "nan is not a JSON number")))
    }

    @Test func customQueryEncoderOfTheEndpoint() throws {
        struct Rails: EndPointType {
            var baseURL: URL { URL(string: "https://example.invalid")! }
            var path: String { "items" }
            var httpMethod: HTTPMethod { .get }
            var task: HTTPTask { .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["id": [1, 2]]) }
            var headers: HTTPHeaders? { nil }
            var queryEncoder: URLParameterEncoder { URLParameterEncoder(arrayEncoding: .noBrackets) }
        }
        #expect(try RequestBuilder.makeRequest(for: Rails()).url?.absoluteString == "https://example.invalid/items?id=1&id=2")
    }

    @Test func fileURLBaseIsRejected() {
        let endpoint = TestEndpoint(baseURL: URL(fileURLWithPath: "/tmp"), path: "x")
        #expect(buildError(endpoint) == .invalidURL("file:///tmp/"))
    }

    /// Found from outside (2026-11-26): an endpoint's own `Content-Type` (a global
    /// `application/json`, or `multipart/form-data` without a boundary or with another) was kept
    /// on a multipart body, whose parts then no server could find.
    @Test(arguments: ["application/json", "multipart/form-data", "multipart/form-data; boundary=other"])
    func aMultipartBodyAlwaysNamesItsOwnBoundary(_ endpointType: String) throws {
        var form = MultipartFormData()
        form.append("v", name: "a")
        var endpoint = TestEndpoint(baseURL: try #require(URL(string: "https://example.com")), path: "upload")
        endpoint.httpMethod = .post
        endpoint.task = .uploadMultipart(form)
        endpoint.headers = ["content-type": endpointType, "Accept": "application/json"]
        let request = try RequestBuilder.makeRequest(for: endpoint)
        let types = (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() == "content-type" }
        #expect(Array(types.values) == [form.contentType])
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    /// Found from outside (2026-11-26): `..` in a path climbed out of the base path over
    /// URLSessionTransport (`/v1/` + `../escaped` reached `/escaped`) while CurlTransport sent
    /// `/v1/../escaped` as written. A dot segment is refused, on every transport alike.
    @Test(arguments: ["../escaped", "./../../escaped", "users/../../admin", "a/./b", "a/..", ".", "..?x=1"])
    func aDotSegmentInThePathIsRefused(_ path: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "https://example.com/v1/")), path: path)
        guard case .invalidPath(_, let reason)? = buildError(endpoint) else {
            Issue.record("\(path) was built: \(String(describing: try? RequestBuilder.makeRequest(for: endpoint).url))")
            return
        }
        #expect(reason.contains("\"..\""))
    }

    @Test(arguments: [".well-known/x", "a.b/c", "...", "v1.2/..x", "a/b?next=../c", "%2E%2E%2E", "a%2Fb", "%2"])
    func pathsWithDotsThatAreNotSegmentsAreKept(_ path: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "https://example.com/v1/")), path: path)
        #expect(throws: Never.self) { try RequestBuilder.makeRequest(for: endpoint) }
    }
}
