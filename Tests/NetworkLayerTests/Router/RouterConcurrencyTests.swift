import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many requests at once, each cancelled at a random moment or not at all, over each transport.
@Suite("Concurrency", .needsHTTPBin)
struct RouterConcurrencyTests {
    @Test(arguments: TestTransport.all)
    func everyCompletionRunsExactlyOnceAndNothingIsLeftBehind(_ transport: TestTransport) async throws {
        let router = transport.router(callbackQueue: DispatchQueue(label: "tests", attributes: .concurrent))
        let total = 500
        let counters = (0..<total).map { _ in CompletionCounter() }
        var generator = SystemRandomNumberGenerator()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<total {
                let path = index.isMultiple(of: 2) ? "delay/0" : "get"
                let handle = router.request(.httpbin(path)) { counters[index].record($0) }
                // A third cancelled at once, a third after up to 20 ms, a third left alone.
                switch index % 3 {
                case 0:
                    handle.cancel()
                case 1:
                    let delay = UInt64.random(in: 0...20_000_000, using: &generator)
                    group.addTask {
                        try? await Task.sleep(nanoseconds: delay)
                        handle.cancel()
                    }
                default:
                    break
                }
            }
        }
        #expect(await eventually(within: 30) { counters.allSatisfy { $0.count >= 1 } })
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(counters.allSatisfy { $0.count == 1 })
        #expect(router.inFlightCount == 0)
        let succeeded = counters.filter { (try? $0.first?.get())?.statusCode == 200 }.count
        let cancelled = counters.filter { $0.first?.isCancelled == true }.count
        #expect(succeeded + cancelled == total)
        // A request goes to the transport before `request` returns: now and then httpbin's answer
        // beats the cancel on the next line, and the success stands.
        #expect(cancelled >= total / 3 - 10)
        #expect(succeeded >= total / 3)
    }
}
