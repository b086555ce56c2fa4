import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Exactly once, whatever the fault

extension Reliability {
    @Suite("Fault injection, completion API", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionCompletionTests {
        @Test(arguments: TestTransport.all, Fault.allCases)
        func everyFaultCompletesExactlyOnceWithItsOutcome(_ transport: TestTransport, _ fault: Fault) async throws {
            let router = fault.makeRouter(over: transport)
            try await fault.prime(router)
            let counter = CompletionCounter()
            router.request(fault.endpoint(), completion: { counter.record($0) })
            #expect(
                await eventually(within: fault.timeout + 3) { counter.count >= 1 },
                "no completion within \(fault.timeout + 3) s")
            // Late duplicates would arrive after the first completion: give them time to.
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(counter.count == 1)
            #expect(router.inFlightCount == 0)

            let result = try #require(counter.first)
            if case .decoding = fault.expected(over: transport) {
                fault.expected(over: transport).verify(
                    result.flatMap { response in
                        Result { () throws(NetworkError) in try response.decode(Greeting.self) }
                    }, timeout: fault.timeout)
            } else {
                fault.expected(over: transport).verify(result, timeout: fault.timeout)
            }
        }
    }
}
