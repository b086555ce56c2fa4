import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `send` of a callback transport (URLSessionTransport, CurlTransport) from a task that is
/// already cancelled starts nothing: a transfer started and stopped at once can still put the
/// request on the wire, as CurlTransport's thread did under AddressSanitizer.
@Suite("Callback transports")
struct CallbackTransportTests {
    /// Counts its starts and answers each at once.
    struct CountingTransport: CallbackTransport {
        let starts = Locked(0)

        func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
            starts.withLock { $0 += 1 }
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
            completion(response.map { .success((Data(), .made($0))) } ?? .failure(URLError(.badServerResponse)))
            return {}
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try await sendThroughCallback(request)
        }
    }

    @Test func aTaskCancelledBeforeSendingStartsNothing() async throws {
        let transport = CountingTransport()
        let request = URLRequest(url: try #require(URL(string: "https://example.invalid/x")))
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await transport.send(request)
        }
        task.cancel()
        guard case .failure(let error) = await task.result else {
            Issue.record("a cancelled task's request was sent")
            return
        }
        #expect((error as? URLError)?.code == .cancelled)
        #expect(transport.starts.withLock { $0 } == 0)
    }

    @Test func aTaskNotCancelledStartsOnce() async throws {
        let transport = CountingTransport()
        let request = URLRequest(url: try #require(URL(string: "https://example.invalid/x")))
        #expect(try await transport.send(request).1.statusCode == 200)
        #expect(transport.starts.withLock { $0 } == 1)
    }
}
