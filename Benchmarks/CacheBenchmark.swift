import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTPCache lookups of a fresh entry: in memory, and from disk (a disk-only cache, so every
/// lookup opens, reads and checks a file). No network.
///
/// The variants run in interleaved blocks (A B C, then C B A, several times) so that a slow
/// moment of the machine hits every variant alike; each row gives the median and the range of
/// the blocks.
func runCacheBenchmarks() throws {
    print("\n## HTTPCache: lookup of a fresh stored response (µs per lookup; median [min–max] of interleaved blocks)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-bench-cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }

    let memory = try HTTPCache(configuration: .init())
    let disk = try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder))
    let small = try storedRequest(in: memory, path: "small", bodySize: 1_024)
    let diskSmall = try storedRequest(in: disk, path: "small", bodySize: 1_024)
    let diskLarge = try storedRequest(in: disk, path: "large", bodySize: 64 * 1_024)

    let results = try interleaved(
        rounds: 5,
        [
            ("memory, 1 KiB body", 20_000, { try lookUp(small, in: memory) }),
            ("disk, 1 KiB body", 5_000, { try lookUp(diskSmall, in: disk) }),
            ("disk, 64 KiB body", 1_000, { try lookUp(diskLarge, in: disk) }),
        ])
    for (label, samples) in results {
        row("lookup, \(label)", "\(Spread(values: samples)) µs")
    }
    // What a disk lookup costs per byte of body: reading it and checking its SHA-256.
    let perKiB = (Spread(values: results[2].1).median - Spread(values: results[1].1).median) / 63
    row("  disk: cost per KiB of body (read + SHA-256 check)", format(perKiB, 2) + " µs, " + format(1_000_000 / perKiB / 1_024, 0) + " MiB/s")
}

/// A GET whose fresh 200 response (max-age, ETag, a JSON content type) is stored in `cache`.
private func storedRequest(in cache: HTTPCache, path: String, bodySize: Int) throws -> URLRequest {
    var request = URLRequest(url: URL(string: "https://api.example.com/3/movie/\(path)?language=en-US&page=1")!)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("Bearer benchmark-token", forHTTPHeaderField: "Authorization")
    guard case .send(let sent, let pending) = cache.lookup(request),
        let http = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: [
                "Cache-Control": "public, max-age=3600", "ETag": #""abc123""#, "Content-Type": "application/json;charset=utf-8",
                "Server": "bench",
            ])
    else { throw BenchmarkError.unexpected("the empty cache did not let the request through") }
    let body = Data(repeating: UInt8(ascii: "x"), count: bodySize)
    _ = cache.complete(pending, with: Response(request: sent, httpResponse: http, data: body))
    try lookUp(request, in: cache)
    return request
}

private func lookUp(_ request: URLRequest, in cache: HTTPCache) throws {
    guard case .hit(let response, .hit) = cache.lookup(request), !response.data.isEmpty else {
        throw BenchmarkError.unexpected("a stored fresh response was not a hit")
    }
}

enum BenchmarkError: Error {
    case unexpected(String)
}

/// Runs each variant's block (`iterations` calls) in the order A B C…, then …C B A, `rounds`
/// times; returns each variant's µs per call, one sample per block.
private func interleaved(rounds: Int, _ variants: [(String, Int, () throws -> Void)]) throws -> [(String, [Double])] {
    var samples = Array(repeating: [Double](), count: variants.count)
    // One untimed pass: page cache, allocator and code paths warm for every variant.
    for variant in variants { for _ in 0..<(variant.1 / 10) { try variant.2() } }
    for round in 0..<(rounds * 2) {
        let order = round.isMultiple(of: 2) ? Array(variants.indices) : variants.indices.reversed()
        for index in order {
            let (_, iterations, body) = variants[index]
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { try body() }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3
            samples[index].append(elapsed / Double(iterations))
        }
    }
    return zip(variants.map(\.0), samples).map { ($0, $1) }
}

/// A GET the fixture server answers with `Cache-Control: max-age=3600`.
struct CachedBenchEndpoint: EndPointType {
    let baseURL: URL
    let key: String
    var path: String { "cache/max-age/\(key)" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["seconds": 3600]) }
    var headers: HTTPHeaders? { ["Accept": "application/json"] }
}

/// A fresh cache hit through the router, against the same request answered by the loopback
/// server (a router without a cache), one request at a time.
func runRouterCacheBenchmark(server: URL) async throws {
    print("\n## Router with HTTPCache: a fresh hit vs the same GET to the loopback server (µs per request, 1 in flight)")
    print("(blocks A B B A, 6 rounds; A = no cache, every request to \(server.absoluteString); B = the same router with a cache)")
    let endpoint = CachedBenchEndpoint(baseURL: server, key: "bench-\(UUID().uuidString)")
    let uncached = Router<CachedBenchEndpoint>(callbackQueue: DispatchQueue(label: "bench"))
    let cached = Router<CachedBenchEndpoint>(callbackQueue: DispatchQueue(label: "bench"), cache: .inMemory())
    for _ in 0..<200 {
        _ = try await uncached.request(endpoint)
        _ = try await cached.request(endpoint)
    }
    guard try await cached.request(endpoint).cacheOutcome == .hit else {
        throw BenchmarkError.unexpected("the cached router did not answer from its cache")
    }
    let comparison = try await interleaved(
        rounds: 6, perBlock: 500, width: 1,
        a: { _ = try await uncached.request(endpoint) },
        b: { _ = try await cached.request(endpoint) })
    let microseconds = { (rate: Double) in 1_000_000 / rate }
    row("loopback request (no cache)", format(microseconds(comparison.a.median), 1) + " µs")
    row("cache hit through the router", format(microseconds(comparison.b.median), 1) + " µs")
    row("  hit throughput / loopback throughput", "\(comparison.ratio)")
    row("  CPU per request: loopback / hit", format(comparison.aCPUMicroseconds, 0) + " / " + format(comparison.bCPUMicroseconds, 0) + " µs")
}

/// A `Vary` on a header that differs per request (a request ID): each answer is a variant of
/// the same URL. Lookup and store of a new one after 2,000 earlier ones (B) against after 16 (A),
/// each block on a fresh cache, in A B B A order: near 1 when a URL's variants are bounded.
func runCacheVariantBenchmark() throws {
    print("\n## HTTPCache: Vary on a per-request header, lookup + store after 2,000 earlier variants / after 16")
    let url = URL(string: "https://api.example.com/3/movie/popular")!
    func send(_ id: Int, to cache: HTTPCache) throws {
        var request = URLRequest(url: url)
        request.setValue("request-\(id)", forHTTPHeaderField: "X-Request-ID")
        guard case .send(let sent, let pending) = cache.lookup(request),
            let http = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": "max-age=600", "Vary": "X-Request-ID"])
        else { throw BenchmarkError.unexpected("a new request ID was answered from the cache") }
        _ = cache.complete(pending, with: Response(request: sent, httpResponse: http, data: Data("x".utf8)))
    }
    func block(earlier: Int) throws -> Double {
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 64 << 20))
        for id in 0..<earlier { try send(id, to: cache) }
        let timed = 200
        let start = DispatchTime.now().uptimeNanoseconds
        for id in earlier..<(earlier + timed) { try send(id, to: cache) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(timed)
    }
    var few: [Double] = []
    var many: [Double] = []
    for _ in 0..<5 {
        for isFew in [true, false, false, true] {
            if isFew { few.append(try block(earlier: 16)) } else { many.append(try block(earlier: 2_000)) }
        }
    }
    var ratios: [Double] = []
    for round in 0..<5 {
        let manyPair: Double = many[2 * round] + many[2 * round + 1]
        let fewPair: Double = few[2 * round] + few[2 * round + 1]
        ratios.append(manyPair / fewPair)
    }
    row("after 16 variants", "\(Spread(values: few)) µs per request")
    row("after 2,000 variants", "\(Spread(values: many)) µs per request")
    row("  2,000 / 16 (median, range)", "\(Spread(values: ratios))")
}
