import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    // MARK: - Running a request under a watchdog

    /// A request's result and how long it took.
    struct Outcome<Value: Sendable>: Sendable {
        let result: Result<Value, NetworkError>
        let elapsed: TimeInterval
    }

    /// Runs `body` and returns its value, or `nil` if `seconds` pass first.
    ///
    /// Swift Testing's `.timeLimit` cancels a test's task, but it still waits for the test to return:
    /// a continuation that is never resumed (a lost completion) hangs it for ever, as measured on this
    /// toolchain. This watchdog runs `body` in a task of its own and stops waiting when time is up,
    /// so a library hang fails the test instead of hanging CI.
    static func withWatchdog<T: Sendable>(_ seconds: TimeInterval, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let gate = ResumeOnce(continuation)
            let task = Task { gate.resume(returning: await body()) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if gate.resume(returning: nil) { task.cancel() }
            }
        }
    }

    /// Resumes a continuation the first time only; later calls return `false`.
    final class ResumeOnce<T: Sendable>: @unchecked Sendable {
        private var continuation: CheckedContinuation<T, Never>?
        private let lock = NSLock()

        init(_ continuation: CheckedContinuation<T, Never>) {
            self.continuation = continuation
        }

        @discardableResult
        func resume(returning value: T) -> Bool {
            lock.lock()
            let continuation = self.continuation
            self.continuation = nil
            lock.unlock()
            continuation?.resume(returning: value)
            return continuation != nil
        }
    }

    /// Sends with `body`, timing it, under a watchdog of the fault's deadline plus `grace` seconds.
    static func measure<Value: Sendable>(
        _ fault: Fault, grace: TimeInterval = 3, _ body: @escaping @Sendable () async throws -> Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome<Value> {
        let started = Date()
        let result = await withWatchdog(fault.timeout + grace) { () -> Result<Value, NetworkError> in
            do {
                return .success(try await body())
            } catch let error as NetworkError {
                return .failure(error)
            } catch {
                Issue.record("threw \(type(of: error)), not a NetworkError: \(error)", sourceLocation: sourceLocation)
                return .failure(.underlying(error))
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        let finished = try #require(
            result, "no outcome within \(fault.timeout + grace) s: the request hangs",
            sourceLocation: sourceLocation)
        return Outcome(result: finished, elapsed: elapsed)
    }

    /// The APIError case as the Reliability article names it: "`APIError.rateLimited`".
    static func readmeName(of error: APIError) -> String {
        guard case .failed(let networkError) = error else {
            return "`APIError.\(String(describing: error).prefix { $0 != "(" })`"
        }
        let name: String
        switch networkError {
        case .transport: name = "transport"
        case .timedOut: name = "timedOut"
        case .decoding: name = "decoding"
        case .cancelled: name = "cancelled"
        default: name = "\(networkError)"
        }
        return "`APIError.failed(.\(name))`"
    }

    /// A small model: what the fixture's well-formed JSON would be.
    struct Greeting: Decodable, Sendable, Equatable {
        let ok: Bool
    }

    /// Counts the attempts a router makes (each `willSend`), from any thread.
    final class AttemptCounter: PluginType, @unchecked Sendable {
        private var attempts = 0
        private let lock = NSLock()

        func willSend(_ request: URLRequest, context: RequestContext) {
            lock.lock(); attempts += 1; lock.unlock()
        }

        var count: Int { lock.lock(); defer { lock.unlock() }; return attempts }
    }
}
