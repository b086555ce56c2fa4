import Foundation
import Testing
import TestSupport

@testable import NetworkLayer

/// The callback bridge, `awaitCallback`: what it holds is released once the value is handed over.
@Suite("Callback bridge")
struct CallbackBridgeTests {
    /// What an operation keeps while it runs: here, the callback, as a transport's call does.
    final class Operation: Sendable {
        let callback: @Sendable (Int) -> Void
        init(_ callback: @escaping @Sendable (Int) -> Void) { self.callback = callback }
    }

    /// The bridge holds what stops the operation, and the callback holds the bridge: an
    /// operation that calls back before `start` returns, and whose stop holds the callback,
    /// made a cycle that kept every stubbed request's objects (found by `Benchmarks stub`,
    /// 2026-11-26: 435 MiB peak against 32 MiB).
    @Test func anOperationThatCallsBackAtOnceIsReleased() async {
        weak var released: Operation?
        let value = await awaitCallback { (callback: @escaping @Sendable (Int) -> Void) in
            let operation = Operation(callback)
            released = operation
            operation.callback(7)
            return { withExtendedLifetime(operation) {} }
        }
        #expect(value == 7)
        #expect(released == nil, "the operation outlived its request")
    }

    /// The same for an operation that calls back later, from another thread.
    @Test func anOperationThatCallsBackLaterIsReleased() async {
        weak var released: Operation?
        let value = await awaitCallback { (callback: @escaping @Sendable (Int) -> Void) in
            let operation = Operation(callback)
            released = operation
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { operation.callback(8) }
            return { withExtendedLifetime(operation) {} }
        }
        #expect(value == 8)
        // The queue lets go of its block just after running it.
        #expect(await eventually { released == nil }, "the operation outlived its request")
    }
}
