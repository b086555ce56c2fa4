import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// `.needsFixtureServer` and `.needsHTTPBin` come from TestSupport.
extension Trait where Self == ConditionTrait {
    /// Runs the test only when Scripts/test has started the https fixture server.
    static var needsTLSFixture: Self {
        .enabled(if: TLSFixture.url != nil, Comment(rawValue: TestServers.skipReason))
    }
}

/// The https instance of the fixture server that Scripts/test starts, with the certificate
/// authority it generated and the pin of the server's key.
enum TLSFixture {
    static let url = environment("NETWORKLAYER_TLS_FIXTURE_URL").flatMap(URL.init(string:))
    static let certificateAuthorityFile = environment("NETWORKLAYER_TLS_CA_FILE").map(URL.init(fileURLWithPath:))
    static let pin = environment("NETWORKLAYER_TLS_PIN")
    /// The CONNECT proxy that Scripts/test starts (`Tests/Fixtures/connect_proxy.py`).
    static let proxy = environment("NETWORKLAYER_CONNECT_PROXY_URL").flatMap(URL.init(string:))

    private static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

/// A request to the fixture server (`path` may carry a query).
func fixtureRequest(_ path: String, method: String = "GET", body: Data? = nil, timeout: TimeInterval = TestTiming.requestTimeout) -> URLRequest {
    request(TestServers.fixture, path, method: method, body: body, timeout: timeout)
}

/// A request to httpbin.
func httpbinRequest(_ path: String, method: String = "GET", body: Data? = nil, timeout: TimeInterval = TestTiming.requestTimeout) -> URLRequest {
    request(TestServers.httpbin, path, method: method, body: body, timeout: timeout)
}

private func request(_ base: URL?, _ path: String, method: String, body: Data?, timeout: TimeInterval) -> URLRequest {
    let root = base?.absoluteString ?? "http://127.0.0.1:9"
    var request = URLRequest(url: URL(string: root + path) ?? URL(fileURLWithPath: "/"), timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    return request
}

/// The `URLError` that `body` throws, or an issue recorded when it throws none or another error.
func urlError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async -> URLError? {
    do {
        _ = try await body()
        Issue.record("expected a URLError, got a result", sourceLocation: sourceLocation)
    } catch let error as URLError {
        return error
    } catch {
        Issue.record("expected a URLError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Seconds since `start`.
func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Collects progress events from any thread.
final class ProgressLog: @unchecked Sendable {
    private var events: [(Int64, Int64?)] = []
    private let lock = NSLock()

    var handler: TransferProgressHandler {
        { completed, total in self.lock.withLock { self.events.append((completed, total)) } }
    }

    var all: [(completed: Int64, total: Int64?)] { lock.withLock { events.map { ($0.0, $0.1) } } }
    var count: Int { lock.withLock { events.count } }
    var last: (completed: Int64, total: Int64?)? { all.last }
}

/// Runs `body` with a new transport of `configuration`, then shuts the transport down and waits
/// for its thread's end. For TLS: a test process exits right after its last test, and a thread
/// still closing TLS connections then loses OpenSSL's state for itself, which AddressSanitizer
/// reports as a leak (2 of 40 runs of `CurlConnectionReuseTests` before they waited).
func withCurlTransport<T>(
    _ configuration: CurlTransport.Configuration = .init(), _ body: (CurlTransport) async throws -> T
) async throws -> T {
    let transport = CurlTransport(configuration: configuration)
    do {
        let result = try await body(transport)
        await transport.shutdown()
        return result
    } catch {
        await transport.shutdown()
        throw error
    }
}
