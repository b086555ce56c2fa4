import Dispatch
import Foundation
import NetworkLayer

/// Where Scripts/trace-path starts and stops recording: the functions of ours entered between
/// the two calls are one request's path. Never inlined, so that the debugger can stop on them.
@inline(never) func traceBegins() { print("trace begins") }
@inline(never) func traceEnds() { print("trace ends") }

/// One request of the kind `path` names, after one like it has warmed up the connection, the
/// cache and the code, between ``traceBegins()`` and ``traceEnds()``:
/// - `plain`: the completion form over the default `URLSessionTransport`, nothing configured;
/// - `stub`: `request(_:as:)` decoding an immediate stub, from a task;
/// - `cache-hit`: `request(_:)` answered by a fresh entry of an in-memory cache, from a task.
func runTracedRequest(_ path: String, server: URL) async throws {
    let step: @Sendable () async throws -> Void
    switch path {
    case "plain":
        let router = Router<BenchEndpoint>(callbackQueue: DispatchQueue(label: "trace.callbacks"))
        let endpoint = BenchEndpoint(baseURL: server)
        step = {
            _ = try await withCheckedThrowingContinuation { continuation in
                router.request(endpoint) { continuation.resume(with: $0) }
            }
        }
    case "stub":
        let router = Router<StubbedEndpoint>(stubBehavior: { _ in .immediate })
        step = { _ = try await router.request(StubbedEndpoint(), as: SmallModel.self) }
    case "cache-hit":
        let router = Router<CachedBenchEndpoint>(cache: .inMemory())
        let endpoint = CachedBenchEndpoint(baseURL: server, key: "trace-\(UUID().uuidString)")
        step = { _ = try await router.request(endpoint) }
    default:
        throw BenchmarkError.unexpected("trace-path takes plain, stub or cache-hit, not \(path)")
    }
    try await Task.detached {
        try await step()
        traceBegins()
        try await step()
        traceEnds()
    }.value
}
