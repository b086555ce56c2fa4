import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each HTTPTask case sent to httpbin's /anything: what the server saw is what the endpoint said,
/// over each transport.
@Suite("Router against httpbin", .needsHTTPBin)
struct RouterHTTPBinTests {
    private func echo(over transport: TestTransport, _ endpoint: TestEndpoint) async throws -> [String: Any] {
        let response = try await transport.router().request(endpoint)
        #expect(response.statusCode == 200)
        return try jsonObject(response.data)
    }

    static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]

    @Test(arguments: TestTransport.all, methods)
    func plainRequest(_ transport: TestTransport, method: HTTPMethod) async throws {
        let echo = try await echo(over: transport, .httpbin("anything/plain", method, headers: ["X-Trace": "t-1"]))
        #expect(echo["method"] as? String == method.rawValue)
        #expect((echo["url"] as? String)?.hasSuffix("/anything/plain") == true)
        #expect((echo["args"] as? [String: Any])?.isEmpty == true)
        #expect(echo["data"] as? String == "")
        #expect((echo["headers"] as? [String: String])?["X-Trace"] == "t-1")
    }

    @Test(arguments: TestTransport.all, methods)
    func urlParameters(_ transport: TestTransport, method: HTTPMethod) async throws {
        let task = HTTPTask.requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["q": "a b+c", "page": 2, "tags": ["x", "y"]])
        let echo = try await echo(over: transport, .httpbin("anything/query", method, task: task))
        #expect(echo["method"] as? String == method.rawValue)
        let args = try #require(echo["args"] as? [String: Any])
        #expect(args["q"] as? String == "a b+c")
        #expect(args["page"] as? String == "2")
        #expect(args["tags[]"] as? [String] == ["x", "y"])
    }

    @Test(arguments: TestTransport.all, [HTTPMethod.post, .put, .patch, .delete])
    func jsonBodyAndURLParameters(_ transport: TestTransport, method: HTTPMethod) async throws {
        let task = HTTPTask.requestParameters(
            bodyParameters: ["title": "Amélie", "rating": 8.5, "tags": ["a", "b"]], bodyEncoding: .json,
            urlParameters: ["session": "s1"])
        let echo = try await echo(over: transport, .httpbin("anything/json", method, task: task))
        #expect(echo["method"] as? String == method.rawValue)
        #expect((echo["args"] as? [String: String]) == ["session": "s1"])
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["title"] as? String == "Amélie")
        #expect(json["rating"] as? Double == 8.5)
        #expect(json["tags"] as? [String] == ["a", "b"])
        #expect(echo["data"] as? String == #"{"rating":8.5,"tags":["a","b"],"title":"Amélie"}"#)
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/json")
    }

    @Test(arguments: TestTransport.all, [HTTPMethod.post, .put, .patch, .delete])
    func formBody(_ transport: TestTransport, method: HTTPMethod) async throws {
        let task = HTTPTask.requestParameters(
            bodyParameters: ["name": "a&b=c", "n": 1], bodyEncoding: .urlForm, urlParameters: nil)
        let echo = try await echo(over: transport, .httpbin("anything/form", method, task: task))
        #expect(echo["form"] as? [String: String] == ["name": "a&b=c", "n": "1"])
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test(arguments: TestTransport.all)
    func parametersAndHeaders(_ transport: TestTransport) async throws {
        let task = HTTPTask.requestParametersAndHeaders(
            bodyParameters: ["a": 1], bodyEncoding: .json, urlParameters: ["b": "2"],
            additionalHeaders: ["X-Correlation": "r-42", "accept": "application/json"])
        let echo = try await echo(over: transport, .httpbin("anything/both", .post, task: task, headers: ["Accept": "text/plain", "X-Api": "v3"]))
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["X-Correlation"] == "r-42")
        #expect(headers["Accept"] == "application/json")
        #expect(headers["X-Api"] == "v3")
        #expect((echo["args"] as? [String: String]) == ["b": "2"])
        #expect((echo["json"] as? [String: Int]) == ["a": 1])
    }

    @Test(arguments: TestTransport.all, [HTTPMethod.post, .put, .patch])
    func rawData(_ transport: TestTransport, method: HTTPMethod) async throws {
        let body = Data("<movie id=\"1\"/>".utf8)
        let echo = try await echo(over: transport, .httpbin("anything/raw", method, task: .requestData(body, contentType: "application/xml")))
        #expect(echo["data"] as? String == "<movie id=\"1\"/>")
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/xml")
    }

    struct NewList: Encodable, Sendable {
        var listName: String
        var movieIDs: [Int]
    }

    @Test(arguments: TestTransport.all)
    func encodableBodyWithCustomEncoder(_ transport: TestTransport) async throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let task = HTTPTask.requestJSONEncodable(NewList(listName: "Watch", movieIDs: [1, 2]), encoder: encoder)
        let echo = try await echo(over: transport, .httpbin("anything/encodable", .post, task: task))
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["list_name"] as? String == "Watch")
        #expect(json["movie_i_ds"] as? [Int] == [1, 2])
    }

    @Test(arguments: TestTransport.all)
    func completionAPIDeliversTheResponseOnTheCallbackQueue(_ transport: TestTransport) async throws {
        let queue = DispatchQueue(label: "callbacks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let router = transport.router(callbackQueue: queue)
        let (status, onQueue) = await withCheckedContinuation { continuation in
            router.request(.httpbin("get")) { result in
                continuation.resume(returning: ((try? result.get())?.statusCode, DispatchQueue.getSpecific(key: key) == true))
            }
        }
        #expect(status == 200)
        #expect(onQueue)
    }

    @Test(arguments: TestTransport.all)
    func decodesTheBody(_ transport: TestTransport) async throws {
        struct Echo: Decodable { var url: String; var args: [String: String] }
        let task = HTTPTask.requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["a": "1"])
        let echo = try await transport.router().request(.httpbin("get", task: task), as: Echo.self)
        #expect(echo.args == ["a": "1"])
    }

    @Test(arguments: TestTransport.all)
    func decodingFailureKeepsTheErrorAndTheResponse(_ transport: TestTransport) async throws {
        struct Wrong: Decodable { var missing: Int }
        do {
            _ = try await transport.router().request(.httpbin("get"), as: Wrong.self)
            Issue.record("expected a decoding error")
        } catch {
            // Matched with `guard case`, not `catch NetworkError.decoding(let error, let response)`:
            // rebuilding the error from those bindings inside #expect crashes Swift 6.3.1's
            // SILGen ("Found ownership error") when the call throws NetworkError typed.
            guard case .decoding(let underlying, let response) = error else {
                Issue.record("expected a decoding error, got \(error)")
                return
            }
            #expect(underlying is DecodingError)
            #expect(response.statusCode == 200)
            #expect(!response.data.isEmpty)
            #expect(error.localizedDescription.contains("missing key \"missing\""))
        }
    }

    @Test(arguments: TestTransport.all, [404, 500])
    func statusErrorKeepsTheResponse(_ transport: TestTransport, status: Int) async throws {
        do {
            _ = try await transport.router().request(.httpbin("status/\(status)"))
            Issue.record("expected a status error")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == status)
            #expect(response.request.url?.path == "/status/\(status)")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func acceptableStatusCodesOfTheEndpoint(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.httpbin("status/404")
        endpoint.acceptableStatusCodes = [200, 404]
        #expect(try await transport.router().request(endpoint).statusCode == 404)
    }

    @Test(arguments: TestTransport.all)
    func unauthorizedBasicAuthReturnsThe401InsteadOfHanging(_ transport: TestTransport) async throws {
        // A hang would end at the deadline with .timedOut, an unexpected error below. How
        // soon the 401 comes is measured in RouterDeadlineTests, which Scripts/test runs on its
        // own: here other suites can hold both cooperative threads for seconds.
        do {
            _ = try await transport.router().request(.httpbin("basic-auth/user/passwd"))
            Issue.record("expected a 401")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
            #expect(response.header("www-authenticate")?.hasPrefix("Basic") == true)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func wrongCredentialsReturnThe401Too(_ transport: TestTransport) async throws {
        let endpoint = TestEndpoint.httpbin("basic-auth/user/passwd", headers: ["Authorization": "Basic d3Jvbmc6d3Jvbmc="])
        do {
            _ = try await transport.router().request(endpoint)
            Issue.record("expected a 401")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func rightCredentialsSucceed(_ transport: TestTransport) async throws {
        let endpoint = TestEndpoint.httpbin("basic-auth/user/passwd", headers: ["Authorization": "Basic dXNlcjpwYXNzd2Q="])
        #expect(try await transport.router().request(endpoint).statusCode == 200)
    }

    @Test(arguments: TestTransport.all)
    func connectionRefusedIsATransportError(_ transport: TestTransport) async throws {
        // A port nothing listens on: bind, read the port, close.
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:\(try closedPort())")), path: "x")
        do {
            _ = try await transport.router().request(endpoint)
            Issue.record("expected a transport error")
        } catch NetworkError.transport(let error) {
            #expect(error.code == .cannotConnectToHost)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }
}
