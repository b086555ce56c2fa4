import Foundation
import NetworkLayer

/// Chunks already in memory, as an `AsyncSequence`: what is measured is the parsing, not a network.
struct InMemoryChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: [Data]
        var index = 0

        mutating func next() async -> Data? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}

/// A token stream as LLM APIs send it: one small JSON event after another, some with an id or
/// an event type, a keep-alive comment now and then.
func sampleEventStream(bytes target: Int) -> Data {
    var text = ""
    text.reserveCapacity(target + 200)
    var index = 0
    let words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dogs", "élan", "naïve"]
    while text.utf8.count < target {
        if index % 50 == 0 { text += ": keep-alive\n" }
        if index % 10 == 0 { text += "id: \(index)\n" }
        if index % 25 == 0 { text += "event: usage\n" }
        text += "data: {\"index\":\(index),\"token\":\"\(words[index % words.count])\",\"logprob\":-0.\(index % 997)}\n\n"
        index += 1
    }
    return Data(text.utf8)
}

/// `data` in chunks of `size` bytes: libcurl hands Foundation at most 16 KiB at a time.
func chunked(_ data: Data, size: Int) -> [Data] {
    stride(from: 0, to: data.count, by: size).map { Data(data[$0..<min($0 + size, data.count)]) }
}

struct Throughput {
    var seconds: [Double] = []
    let bytes: Int

    var megabytesPerSecond: [Double] { seconds.map { Double(bytes) / $0 / 1e6 }.sorted() }
    var median: Double {
        let sorted = megabytesPerSecond
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var summary: String {
        let values = megabytesPerSecond
        return "\(format(median, 0)) MB/s (\(format(values.first ?? 0, 0))-\(format(values.last ?? 0, 0)))"
    }
}

func seconds(_ body: () async throws -> Int) async rethrows -> (Double, Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let count = try await body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, count)
}

func runStreamingBenchmarks() async throws {
    let body = sampleEventStream(bytes: 32 << 20)
    let chunks = chunked(body, size: 16 * 1024)
    let sequence = InMemoryChunks(chunks: chunks)
    print("\n## Streaming parse throughput, \(body.count >> 20) MiB of server-sent events in 16 KiB chunks")
    print("   (baselines: per chunk, split(separator: 0x0A) and String(decoding:) each piece; A B B A interleaved)")

    // The baseline cannot join a line cut between two chunks, nor see CR or CRLF: it is the
    // cost floor of "give me the lines", not a correct parser.
    let variants: [(name: String, run: () async throws -> Int)] = [
        (
            "baseline: split on LF + String(decoding:)",
            {
                var count = 0
                for chunk in chunks {
                    for piece in chunk.split(separator: 0x0A, omittingEmptySubsequences: false) {
                        count &+= String(decoding: piece, as: UTF8.self).utf8.count > 0 ? 1 : 0
                    }
                }
                return count
            }
        ),
        (
            "baseline: the same on the raw bytes (withUnsafeBytes)",
            {
                var count = 0
                for chunk in chunks {
                    chunk.withUnsafeBytes { bytes in
                        for piece in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                            count &+= String(decoding: piece, as: UTF8.self).utf8.count > 0 ? 1 : 0
                        }
                    }
                }
                return count
            }
        ),
        (
            "LineSplitter.append",
            {
                var splitter = LineSplitter()
                var count = 0
                for chunk in chunks {
                    try splitter.append(chunk) { count &+= $0.utf8.count > 0 ? 1 : 0 }
                }
                return count
            }
        ),
        (
            "ServerSentEventParser.append",
            {
                var parser = ServerSentEventParser()
                var count = 0
                for chunk in chunks {
                    try parser.append(chunk) { count &+= $0.data.utf8.count }
                }
                return count
            }
        ),
        (
            "chunks.lines (AsyncSequence)",
            {
                var count = 0
                for try await line in sequence.lines { count &+= line.utf8.count > 0 ? 1 : 0 }
                return count
            }
        ),
        (
            "chunks.events (AsyncSequence)",
            {
                var count = 0
                for try await event in sequence.events { count &+= event.data.utf8.count }
                return count
            }
        ),
    ]

    var results = variants.map { _ in Throughput(bytes: body.count) }
    var counts = Array(repeating: 0, count: variants.count)
    // Warm-up, then A B B A: each round runs the variants in turn, every other round backwards,
    // so that drift of the machine's speed over the run hits every variant alike.
    for index in variants.indices { _ = try await variants[index].run() }
    for round in 0..<10 {
        let order = round % 2 == 0 ? Array(variants.indices) : variants.indices.reversed()
        for index in order {
            let (elapsed, count) = try await seconds(variants[index].run)
            results[index].seconds.append(elapsed)
            counts[index] = count
        }
    }
    for index in variants.indices {
        row(variants[index].name, results[index].summary)
    }
    let slow = results[0].median
    let fast = results[1].median
    for (index, name) in [(2, "LineSplitter"), (3, "ServerSentEventParser"), (4, "chunks.lines"), (5, "chunks.events")] {
        row("ratio \(name) / baselines (Data, raw bytes)", format(results[index].median / slow, 2) + "x, " + format(results[index].median / fast, 2) + "x")
    }
    // The counts keep the work from being optimized away, and check that both paths agree.
    if counts[2] != counts[4] || counts[3] != counts[5] {
        print("   warning: the synchronous and async paths disagree: \(counts)")
    }
}
