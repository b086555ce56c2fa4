import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task cancelled before it calls the router gets `.cancelled` and sends nothing, whatever the
/// transport: no request, no plugin hook, nothing in flight.
///
/// Found by CI (RouterCancellationTests, 2026-11-26): the router sent the request and cancelled
/// it a moment later, and on a loaded machine httpbin's answer arrived in that moment. A stub,
/// which answers at once, lost that race every time.
@Suite("Already-cancelled tasks")
struct AlreadyCancelledTests {
    /// Counts what reaches it, and answers 200 at once.
    final class CountingTransport: HTTPTransport, @unchecked Sendable {
        private let sent = Locked(0)
        var count: Int { sent.withLock { $0 } }

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            sent.withLock { $0 += 1 }
            let url = request.url ?? URL(fileURLWithPath: "/")
            guard let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]) else {
                throw URLError(.badServerResponse)
            }
            return StreamedResponse(response: response, body: BodyStream(Data()))
        }
    }

    /// Records every hook it hears.
    final class HookRecorder: PluginType, @unchecked Sendable {
        private let hooks = Locked<[String]>([])
        var heard: [String] { hooks.withLock { $0 } }
        func willSend(_ request: URLRequest, context: RequestContext) { hooks.withLock { $0.append("willSend") } }
        func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
            hooks.withLock { $0.append("didReceive") }
        }
    }

    private static func cancelledCall(_ router: Router<TestEndpoint>) async -> Result<Response, NetworkError> {
        await Task { () -> Result<Response, NetworkError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                return .success(try await router.request(.offline()))
            } catch {
                return .failure(error as? NetworkError ?? .underlying(error))
            }
        }.value
    }

    @Test func aStubDoesNotAnswerATaskCancelledBeforeTheCall() async {
        let router = Router<TestEndpoint>(stubBehavior: { _ in .immediate })
        let outcome = await Self.cancelledCall(router)
        #expect(outcome.isCancelled, "\(outcome)")
        #expect(router.inFlightCount == 0)
    }

    @Test func nothingReachesTheTransportOrThePlugins() async {
        let transport = CountingTransport()
        let plugin = HookRecorder()
        let router = Router<TestEndpoint>(transport: transport, plugins: [plugin])
        let outcome = await Self.cancelledCall(router)
        #expect(outcome.isCancelled, "\(outcome)")
        #expect(transport.count == 0)
        #expect(plugin.heard.isEmpty)
        #expect(router.inFlightCount == 0)
    }

    @Test func theDecodingCallIsCancelledToo() async {
        let router = Router<TestEndpoint>(stubBehavior: { _ in .immediate })
        let outcome = await Task { () -> Result<EmptyResponse, NetworkError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                return .success(try await router.request(.offline(), as: EmptyResponse.self))
            } catch {
                return .failure(error as? NetworkError ?? .underlying(error))
            }
        }.value
        guard case .failure(.cancelled) = outcome else {
            Issue.record("expected .cancelled, got \(outcome)")
            return
        }
    }
}
