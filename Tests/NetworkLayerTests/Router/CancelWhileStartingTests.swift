import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `router.cancel()` that lands while requests start, between a handle joining the requests in
/// flight and the chain handing it what stops its work: the caller hears `.cancelled` at once,
/// and the work must stop too. Found from outside (2026-11-26): 346 of 400 such requests still
/// reached the transport.
@Suite("Router.cancel() while requests start")
struct CancelWhileStartingTests {
    /// Pauses (cancellably) before answering, and counts the requests it answers whose caller
    /// already heard `.cancelled`.
    private final class PausingTransport: HTTPTransport, Sendable {
        let cancelledPaths = Locked<Set<String>>([])
        let lateSends = Locked(0)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            try await Task.sleep(nanoseconds: 30_000_000)
            let path = request.url?.path ?? ""
            if cancelledPaths.withLock({ $0.contains(path) }) { lateSends.withLock { $0 += 1 } }
            guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
            else { throw URLError(.badURL) }
            return StreamedResponse(response: response, body: BodyStream(Data("new".utf8)))
        }
    }

    private func endpoint(_ path: String, task: HTTPTask = .request) -> TestEndpoint {
        TestEndpoint(baseURL: URL(string: "http://127.0.0.1:9/")!, path: path, task: task)
    }

    /// Starts `count` requests while another thread calls `router.cancel()` without pause, and
    /// waits for every completion.
    private func race(
        _ router: Router<TestEndpoint>, count: Int, endpoint make: (Int) -> TestEndpoint, heard: @escaping @Sendable (String) -> Void
    ) {
        let stop = Locked(false)
        Thread { while !stop.withLock({ $0 }) { router.cancel() } }.start()
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            let endpoint = make(index)
            router.request(endpoint) { result in
                if case .failure(.cancelled) = result { heard(endpoint.path) }
                done.leave()
            }
        }
        stop.withLock { $0 = true }
        #expect(done.wait(timeout: .now() + 20) == .success)
    }

    @Test func aRequestCancelledAsItStartsNeverReachesTheTransport() async throws {
        let transport = PausingTransport()
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
        race(
            router, count: 400, endpoint: { endpoint("r\($0)") },
            heard: { path in transport.cancelledPaths.withLock { _ = $0.insert("/" + path) } })
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(transport.cancelledPaths.withLock { $0.count } > 0, "no cancellation landed: the race was not run")
        #expect(transport.lateSends.withLock { $0 } == 0)
    }
}
