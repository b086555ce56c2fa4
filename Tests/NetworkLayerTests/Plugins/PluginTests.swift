import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records every hook call, tagged with the plugin's name.
final class RecordingPlugin: PluginType, @unchecked Sendable {
    let name: String
    let log: HookLog
    init(_ name: String, log: HookLog) { self.name = name; self.log = log }

    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        log.append("\(name).prepare")
        var request = request
        request.setValue((request.value(forHTTPHeaderField: "X-Plugins").map { $0 + "," } ?? "") + name, forHTTPHeaderField: "X-Plugins")
        return request
    }
    func willSend(_ request: URLRequest, context: RequestContext) { log.append("\(name).willSend") }
    func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
        log.append("\(name).didReceive(\(Self.describe(result)))")
    }
    func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError> {
        log.append("\(name).process")
        return result
    }
    static func describe(_ result: Result<Response, NetworkError>) -> String {
        switch result {
        case .success(let response): return "\(response.statusCode)"
        case .failure(.cancelled): return "cancelled"
        case .failure(.invalidRequest): return "invalidRequest"
        case .failure(let error): return "\(error)"
        }
    }
}

final class HookLog: @unchecked Sendable {
    private var entries: [String] = []
    private let lock = NSLock()
    func append(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
}

@Suite("Plugins")
struct PluginTests {
    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func hooksRunInOrderAndPrepareChangesTheRequest(_ transport: TestTransport) async throws {
        let log = HookLog()
        let router = transport.router(plugins: [RecordingPlugin("a", log: log), RecordingPlugin("b", log: log)])
        let response = try await router.request(.httpbin("headers"))
        let headers = try #require(try jsonObject(response.data)["headers"] as? [String: String])
        #expect(headers["X-Plugins"] == "a,b")
        #expect(
            log.all == [
                "a.prepare", "b.prepare", "a.willSend", "b.willSend",
                "a.didReceive(200)", "b.didReceive(200)", "a.process", "b.process",
            ])
    }

    @Test func didReceiveRunsForABuildFailure() async throws {
        let log = HookLog()
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse()), plugins: [RecordingPlugin("a", log: log)])
        var endpoint = TestEndpoint.offline("x", .get, task: .requestData(Data("body".utf8), contentType: nil))
        endpoint.timeout = 5
        await #expect(throws: NetworkError.self) { try await router.request(endpoint) }
        #expect(log.all == ["a.didReceive(invalidRequest)", "a.process"])
    }

    @Test func didReceiveRunsOnceForACancellation() async throws {
        let log = HookLog()
        // Cancelled once the transport holds it, never answered: a 5 s stub with a cancel 0.1 s
        // later was answered first when the test task was held back on a loaded machine.
        let entered = Locked(false)
        let held = StubTransport { _ in
            entered.withLock { $0 = true }
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
            return StubResponse()
        }
        let router = Router<TestEndpoint>(
            transport: held, callbackQueue: DispatchQueue(label: "tests"), plugins: [RecordingPlugin("a", log: log)])
        let counter = CompletionCounter()
        let handle = router.request(.offline()) { counter.record($0) }
        #expect(await eventually { entered.withLock { $0 } })
        handle.cancel()
        #expect(await eventually { counter.count == 1 })
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(counter.first?.isCancelled == true)
        #expect(log.all == ["a.prepare", "a.willSend", "a.didReceive(cancelled)", "a.process"])
    }

    @Test func processCanChangeTheResult() async throws {
        struct NotFoundIsEmpty: PluginType {
            func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError> {
                if case .failure(.unacceptableStatusCode(let response)) = result, response.statusCode == 404 {
                    return .success(response)
                }
                return result
            }
        }
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse(statusCode: 404)), plugins: [NotFoundIsEmpty()])
        #expect(try await router.request(.offline()).statusCode == 404)
    }

    @Test func aThrowingPrepareFailsTheRequestWithItsError() async throws {
        struct Locked: Error, Equatable {}
        struct Failing: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { throw Locked() }
        }
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse()), plugins: [Failing()])
        do {
            _ = try await router.request(.offline())
            Issue.record("expected an error")
        } catch NetworkError.underlying(let error) {
            #expect(error is Locked)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }
}
