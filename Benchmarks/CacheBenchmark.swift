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
        row("lookup, \(label)", summary(samples) + " µs")
    }
    // What a disk lookup costs per byte of body: reading it and checking its SHA-256.
    let perKiB = (median(results[2].1) - median(results[1].1)) / 63
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

private func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count.isMultiple(of: 2) ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}

private func summary(_ samples: [Double]) -> String {
    "\(format(median(samples), 1)) [\(format(samples.min() ?? 0, 1))–\(format(samples.max() ?? 0, 1))]"
}
