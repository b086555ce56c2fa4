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
        row("raw URLSession, \(label)", "\(Int(comparison.a.median)) req/s, \(format(comparison.aCPU, 1)) µs CPU/request")
        row("Router + CurlTransport, \(label)", "\(Int(comparison.b.median)) req/s, \(format(comparison.bCPU, 1)) µs CPU/request")
        row(
            "  ratio Router + CurlTransport / URLSession",
            "\(format(comparison.ratios.median)) (range \(format(comparison.ratios.min))–\(format(comparison.ratios.max)))")
        // The transport without the router: what the router's own hops cost on loopback.
        let alone = try await interleaved(rounds: 4, perBlock: perBlock, width: width, a: raw, b: curlAlone)
        row("CurlTransport alone (no router), \(label)", "\(Int(alone.b.median)) req/s, \(format(alone.bCPU, 1)) µs CPU/request")
        row(
            "  ratio CurlTransport alone / URLSession",
            "\(format(alone.ratios.median)) (range \(format(alone.ratios.min))–\(format(alone.ratios.max)))")
    }

    print("\n## The curl command line on the same route (libcurl's ceiling here)")
    for (label, arguments) in [
        ("curl, one at a time", ["-s", "-o", "/dev/null", url.absoluteString + "&n=[1-5000]"]),
        ("curl --parallel --parallel-max 16", ["-s", "-Z", "--parallel-max", "16", "-o", "/dev/null", url.absoluteString + "&n=[1-5000]"]),
    ] {
        guard let rates = curlCommandRates(arguments, requests: 5_000, runs: 3) else {
            row(label, "(curl not found)")
            continue
        }
        row(label, "\(Int(rates.median)) req/s (range \(Int(rates.min))–\(Int(rates.max)))")
    }
}

/// The median, smallest and largest of some measurements.
struct Spread {
    let values: [Double]
    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count.isMultiple(of: 2) ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
    }
    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
}

/// Throughputs of A and B in blocks A B B A per round, the ratio B / A of each round, and the CPU
/// time per request of each.
func interleaved(
    rounds: Int, perBlock: Int, width: Int, a: @escaping @Sendable () async throws -> Void,
    b: @escaping @Sendable () async throws -> Void
) async throws -> (a: Spread, b: Spread, ratios: Spread, aCPU: Double, bCPU: Double) {
    var aRates: [Double] = []
    var bRates: [Double] = []
    var ratios: [Double] = []
    var cpu = (a: 0.0, b: 0.0)
    for _ in 0..<rounds {
        var round = (a: 0.0, b: 0.0)
        for isA in [true, false, false, true] {
            let (seconds, cpuSeconds) = try await timed { try await inFlight(perBlock, width: width, isA ? a : b) }
            let rate = Double(perBlock) / seconds
            if isA {
                aRates.append(rate)
                round.a += seconds
                cpu.a += cpuSeconds
            } else {
                bRates.append(rate)
                round.b += seconds
                cpu.b += cpuSeconds
            }
        }
        ratios.append(round.a / round.b)
    }
    let requests = Double(rounds * 2 * perBlock)
    return (Spread(values: aRates), Spread(values: bRates), Spread(values: ratios), cpu.a / requests * 1e6, cpu.b / requests * 1e6)
}

/// Wall-clock and CPU (user + system, all threads) seconds of `body`.
func timed(_ body: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
    let cpuStart = processCPUSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (wall, processCPUSeconds() - cpuStart)
}

/// The process's CPU time so far (getrusage).
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
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
