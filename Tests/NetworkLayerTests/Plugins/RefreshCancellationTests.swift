import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request cancelled while a token refresh runs stops waiting for it: the refresh runs on for
/// the others, and the cancelled request neither asks for a token again nor keeps its task. It
/// used to wait for the refresh and then prepare its replay (found from outside, 2026-11-26).
@Suite("Cancellation during a token refresh")
struct RefreshCancellationTests {
    /// Accepts only `Bearer new`; 401 otherwise.
    private struct ProtectedTransport: HTTPTransport {
        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            try .answering(request, status: request.value(forHTTPHeaderField: "Authorization") == "Bearer new" ? 200 : 401)
        }
    }

    @Test func aRequestCancelledDuringTheRefreshStopsWaitingForIt() async throws {
        let token = Locked("old")
        let asked = Locked(0)
        let refreshStarted = Locked(false)
        let gate = Locked(false)
        let plugin = AccessTokenPlugin(
            token: {
                asked.withLock { $0 += 1 }
                return token.withLock { $0 }
            },
            refresh: { _ in
                refreshStarted.withLock { $0 = true }
                while !gate.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 5_000_000) }
                token.withLock { $0 = "new" }
                return "new"
            })
        let router = Router<TestEndpoint>(transport: ProtectedTransport(), callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin])

        let request = Task { try await router.request(.offline("me")) }
        // 30 s: the parallel phase held this task for over 5 s on 2 cores (2026-11-26).
        #expect(await eventually(within: 30) { refreshStarted.withLock { $0 } }, "the refresh never started: the test ran nothing")
        let askedBeforeCancel = asked.withLock { $0 }
        request.cancel()
        await #expect(throws: NetworkError.self) { try await request.value }
        // Had the cancelled request's own task gone on waiting, the refresh's end would now
        // take it to its replay, which asks for the token first.
        gate.withLock { $0 = true }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(asked.withLock { $0 } == askedBeforeCancel, "the cancelled request asked for a token after the refresh")
        // The refresh itself ran on: the next request uses its token.
        #expect(try await router.request(.offline("me")).statusCode == 200)
    }
}
