import Foundation
import NetworkLayer
import TestSupport
import Testing

/// An endpoint whose every property a test sets; real APIs use enums, tests want one-liners.
struct TestEndpoint: EndPointType {
    var baseURL: URL
    var path: String
    var httpMethod: HTTPMethod = .get
    var task: HTTPTask = .request
    var headers: HTTPHeaders? = nil
    var timeout: TimeInterval = TestTiming.requestTimeout
    var acceptableStatusCodes: Set<Int> = Set(200..<300)
    var authorizationType: AuthorizationType? = .plugin

    static func httpbin(
        _ path: String, _ method: HTTPMethod = .get, task: HTTPTask = .request,
        headers: HTTPHeaders? = nil, timeout: TimeInterval = TestTiming.requestTimeout
    ) -> TestEndpoint {
        TestEndpoint(
            baseURL: TestServers.httpbin ?? URL(fileURLWithPath: "/no-httpbin"), path: path,
            httpMethod: method, task: task, headers: headers, timeout: timeout)
    }

    static func fixture(_ path: String, _ method: HTTPMethod = .get, timeout: TimeInterval = TestTiming.requestTimeout) -> TestEndpoint {
        TestEndpoint(
            baseURL: TestServers.fixture ?? URL(fileURLWithPath: "/no-fixture"), path: path,
            httpMethod: method, timeout: timeout)
    }

    /// The fixture's redirect to httpbin's header echo: another port, so another origin.
    static func crossOriginRedirect(headers: HTTPHeaders = [:]) throws -> TestEndpoint {
        let httpbin = try #require(TestServers.httpbin)
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.headers = headers
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": httpbin.appendingPathComponent("headers").absoluteString])
        return endpoint
    }

    static func offline(_ path: String = "x", _ method: HTTPMethod = .get, task: HTTPTask = .request, headers: HTTPHeaders? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: URL(string: "https://example.invalid/api")!, path: path, httpMethod: method, task: task, headers: headers)
    }
}

/// Counts how often a completion runs, from any thread.
final class CompletionCounter: @unchecked Sendable {
    private var results: [Result<Response, NetworkError>] = []
    private let lock = NSLock()

    func record(_ result: Result<Response, NetworkError>) {
        lock.lock(); results.append(result); lock.unlock()
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return results.count }
    var first: Result<Response, NetworkError>? { lock.lock(); defer { lock.unlock() }; return results.first }
}

extension Result where Failure == NetworkError {
    var isCancelled: Bool {
        if case .failure(.cancelled) = self { return true }
        return false
    }
}

/// Whether `error` is ``NetworkError/cancelled``, for `#expect(throws:)` closures.
func isCancellation(_ error: any Error) -> Bool {
    if case NetworkError.cancelled = error { return true }
    return false
}
