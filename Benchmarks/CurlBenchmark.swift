import Foundation
import NetworkLayer
import NetworkLayerCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Router + CurlTransport against raw `URLSession.data(from:)` on the fixture server's fast
/// route, in interleaved blocks (A B B A, repeated) so that the machine's drift affects both
/// alike; then the `curl` command line on the same route, as the ceiling of libcurl here.
func runCurlBenchmarks(server: URL) async throws {
    print("\n## Router + CurlTransport vs raw URLSession, GET \(server.absoluteString)/fast?page=1 on loopback")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 16
    let session = URLSession(configuration: configuration)
    let router = Router<BenchEndpoint>(transport: CurlTransport())
    let endpoint = BenchEndpoint(baseURL: server)
    guard let url = try RequestBuilder.makeRequest(for: endpoint).url else { return }

    let raw: @Sendable () async throws -> Void = {
        let (_, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    }
    let curl: @Sendable () async throws -> Void = {
        guard try await router.request(endpoint).statusCode == 200 else { throw URLError(.badServerResponse) }
    }
    for _ in 0..<300 {
        try await raw()
        try await curl()
    }

    let transport = CurlTransport()
    let rawRequest = try RequestBuilder.makeRequest(for: endpoint)
    let curlAlone: @Sendable () async throws -> Void = {
        guard try await transport.send(rawRequest).1.statusCode == 200 else { throw URLError(.badServerResponse) }
    }
    for _ in 0..<300 { try await curlAlone() }

    for (label, width, perBlock) in [("one at a time", 1, 1_000), ("16 in flight", 16, 2_000)] {
        let comparison = try await interleaved(rounds: 4, perBlock: perBlock, width: width, a: raw, b: curl)
        row("raw URLSession, \(label)", "\(Int(comparison.a.median)) req/s, \(format(comparison.aCPUMicroseconds, 1)) µs CPU/request")
        row(
            "Router + CurlTransport, \(label)",
            "\(Int(comparison.b.median)) req/s, \(format(comparison.bCPUMicroseconds, 1)) µs CPU/request")
        row("  ratio Router + CurlTransport / URLSession (median, range)", "\(comparison.ratio)")
        // The transport without the router: what the router's own hops cost on loopback.
        let alone = try await interleaved(rounds: 4, perBlock: perBlock, width: width, a: raw, b: curlAlone)
        row("CurlTransport alone (no router), \(label)", "\(Int(alone.b.median)) req/s, \(format(alone.bCPUMicroseconds, 1)) µs CPU/request")
        row("  ratio CurlTransport alone / URLSession (median, range)", "\(alone.ratio)")
    }

    print("\n## Router + CurlTransport vs the curl command line on the same route (libcurl's ceiling here)")
    print("(blocks A B B A, 4 rounds of 5,000; A = one curl process, keep-alive; ratio = B's throughput / A's per round)")
    for (label, width, parallel) in [("one at a time", 1, [String]()), ("16 in flight", 16, ["-Z", "--parallel-max", "16"])] {
        // -s alone leaves the parallel mode's progress meter on (curl 7.88).
        let arguments = ["-s", "--no-progress-meter"] + parallel + ["-o", "/dev/null", url.absoluteString + "&n=[1-5000]"]
        guard let comparison = try await interleavedWithCurlCommand(arguments, requests: 5_000, rounds: 4, width: width, b: curl) else {
            row("curl command line, \(label)", "(curl not found)")
            continue
        }
        row("curl command line, \(label)", "\(Int(comparison.a.median)) req/s")
        row("Router + CurlTransport, \(label)", "\(Int(comparison.b.median)) req/s")
        row("  ratio Router + CurlTransport / curl command line (median, range)", "\(comparison.ratio)")
    }
}

/// The `curl` command line with `arguments` (one process sending `requests` requests) as A,
/// against `requests` calls of `b` with at most `width` in flight, in blocks A B B A.
func interleavedWithCurlCommand(
    _ arguments: [String], requests: Int, rounds: Int, width: Int, b: @escaping @Sendable () async throws -> Void
) async throws -> Comparison? {
    var rates: (a: [Double], b: [Double]) = ([], [])
    var ratios: [Double] = []
    for _ in 0..<rounds {
        var seconds = (a: 0.0, b: 0.0)
        for isA in [true, false, false, true] {
            let start = DispatchTime.now().uptimeNanoseconds
            if isA {
                guard curlCommandRates(arguments, requests: requests, runs: 1) != nil else { return nil }
            } else {
                try await inFlight(requests, width: width, b)
            }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if isA { rates.a.append(Double(requests) / wall) } else { rates.b.append(Double(requests) / wall) }
            if isA { seconds.a += wall } else { seconds.b += wall }
        }
        ratios.append(seconds.a / seconds.b)
    }
    return Comparison(
        a: Spread(values: rates.a), b: Spread(values: rates.b), ratio: Spread(values: ratios),
        aCPUMicroseconds: 0, bCPUMicroseconds: 0, aContextSwitches: 0, bContextSwitches: 0)
}

/// Requests per second of the `curl` command line with `arguments`, over `runs` runs.
func curlCommandRates(_ arguments: [String], requests: Int, runs: Int) -> Spread? {
    guard let curl = ["/usr/bin/curl", "/usr/local/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        return nil
    }
    var rates: [Double] = []
    for _ in 0..<runs {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = arguments
        let start = DispatchTime.now().uptimeNanoseconds
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        rates.append(Double(requests) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    }
    return Spread(values: rates)
}

/// `requests` GETs of the fast route through the router over `transport` (`curl` or
/// `urlsession`), 16 in flight, and nothing else in the process: what `perf record` or an
/// allocation tracer is pointed at to see where a request's time and memory go.
func runLoad(server: URL, transport: String, requests: Int) async throws {
    if transport == "stub" {
        try await runStubLoad(requests: requests)
        return
    }
    if transport == "cache-hit" {
        try await runCacheHitLoad(server: server, requests: requests)
        return
    }
    let router: Router<BenchEndpoint>
    switch transport {
    case "curl":
        router = Router(transport: CurlTransport())
    case "urlsession":
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        router = Router(transport: URLSessionTransport(configuration: configuration))
    default:
        print("load: unknown transport \(transport); use curl, urlsession, stub or cache-hit")
        return
    }
    let endpoint = BenchEndpoint(baseURL: server)
    let send: @Sendable () async throws -> Void = {
        guard try await router.request(endpoint).statusCode == 200 else { throw URLError(.badServerResponse) }
    }
    let before = ProcessUsage.now()
    let start = DispatchTime.now().uptimeNanoseconds
    try await inFlight(requests, width: 16, send)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = ProcessUsage.now().cpuSeconds - before.cpuSeconds
    row("Router over \(transport), 16 in flight", "\(Int(Double(requests) / wall)) req/s, \(format(cpu / Double(requests) * 1e6, 1)) µs CPU/request")
}

/// An immediate stub decoded to a small model, one at a time: the stub row of `Scripts/bench`
/// without its baseline, for Scripts/alloc-trace and a profiler.
func runStubLoad(requests: Int) async throws {
    let router = Router<StubbedEndpoint>(callbackQueue: DispatchQueue(label: "bench"), stubBehavior: { _ in .immediate })
    try await oneAtATime("Router with an immediate stub, decoded, one at a time", requests: requests) {
        _ = try await router.request(StubbedEndpoint(), as: SmallModel.self)
    }
}

/// A fresh hit of an in-memory cache through the router, one at a time: the cache-hit row of
/// `Scripts/bench` without its baseline, for Scripts/alloc-trace and a profiler.
func runCacheHitLoad(server: URL, requests: Int) async throws {
    let endpoint = CachedBenchEndpoint(baseURL: server, key: "load-\(UUID().uuidString)")
    let router = Router<CachedBenchEndpoint>(callbackQueue: DispatchQueue(label: "bench"), cache: .inMemory())
    _ = try await router.request(endpoint)
    try await oneAtATime("Router with a fresh in-memory cache hit, one at a time", requests: requests) {
        guard try await router.request(endpoint).cacheOutcome == .hit else {
            throw BenchmarkError.unexpected("the router did not answer from its cache")
        }
    }
}

/// Sends `requests` requests through `send`, one after another, and prints the rate and the
/// CPU per request.
private func oneAtATime(_ label: String, requests: Int, _ send: () async throws -> Void) async throws {
    let before = ProcessUsage.now()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<requests { try await send() }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = ProcessUsage.now().cpuSeconds - before.cpuSeconds
    row(label, "\(Int(Double(requests) / wall)) req/s, " + format(cpu / Double(requests) * 1e6, 2) + " µs CPU/request")
}
