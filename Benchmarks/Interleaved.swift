import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The median, smallest and largest of some measurements.
struct Spread: CustomStringConvertible {
    let values: [Double]

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }

    /// "0.97 (0.93–1.01)": median and range.
    var description: String { "\(format(median, 3)) (\(format(min, 3))–\(format(max, 3)))" }
}

/// CPU time (user + system, every thread) and context switches (voluntary and not) of this
/// process so far, from getrusage.
struct ProcessUsage {
    let cpuSeconds: Double
    let contextSwitches: Int

    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessUsage(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw)
    }
}

/// Two ways of doing the same requests, measured in alternating blocks.
struct Comparison {
    /// Requests per second of each block of A and of B.
    let a: Spread
    let b: Spread
    /// Per round (blocks A B B A), throughput of B over throughput of A.
    let ratio: Spread
    /// Per request, over all blocks.
    let aCPUMicroseconds: Double
    let bCPUMicroseconds: Double
    let aContextSwitches: Double
    let bContextSwitches: Double
}

/// Runs A and B in blocks A B B A for `rounds` rounds, each block `perBlock` requests with at
/// most `width` in flight: back-to-back runs drift with the machine (a Python server shares the
/// two cores), alternating blocks see the same drift.
func interleaved(
    rounds: Int, perBlock: Int, width: Int,
    a: @escaping @Sendable () async throws -> Void, b: @escaping @Sendable () async throws -> Void
) async throws -> Comparison {
    var rates: (a: [Double], b: [Double]) = ([], [])
    var ratios: [Double] = []
    var cpu = (a: 0.0, b: 0.0)
    var switches = (a: 0, b: 0)
    for _ in 0..<rounds {
        var seconds = (a: 0.0, b: 0.0)
        for isA in [true, false, false, true] {
            let before = ProcessUsage.now()
            let start = DispatchTime.now().uptimeNanoseconds
            try await inFlight(perBlock, width: width, isA ? a : b)
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let after = ProcessUsage.now()
            if isA {
                rates.a.append(Double(perBlock) / wall)
                seconds.a += wall
                cpu.a += after.cpuSeconds - before.cpuSeconds
                switches.a += after.contextSwitches - before.contextSwitches
            } else {
                rates.b.append(Double(perBlock) / wall)
                seconds.b += wall
                cpu.b += after.cpuSeconds - before.cpuSeconds
                switches.b += after.contextSwitches - before.contextSwitches
            }
        }
        ratios.append(seconds.a / seconds.b)
    }
    let requests = Double(rounds * 2 * perBlock)
    return Comparison(
        a: Spread(values: rates.a), b: Spread(values: rates.b), ratio: Spread(values: ratios),
        aCPUMicroseconds: cpu.a / requests * 1e6, bCPUMicroseconds: cpu.b / requests * 1e6,
        aContextSwitches: Double(switches.a) / requests, bContextSwitches: Double(switches.b) / requests)
}

/// Sends `total` requests with at most `width` in flight. One at a time, they are sent in turn
/// by the calling task, as a caller awaiting one request after another does: a child task per
/// request would add a wake-up of another thread whose frequency depends on how long the
/// measured work takes (measured: 0.35 context switches per 6 µs decode, 0.93 per 19 µs stubbed
/// request), which is the harness's cost, not the work's.
func inFlight(_ total: Int, width: Int, _ send: @escaping @Sendable () async throws -> Void) async throws {
    if width == 1 {
        for _ in 0..<total { try await send() }
        return
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        var started = 0
        while started < min(width, total) {
            group.addTask { try await send() }
            started += 1
        }
        while try await group.next() != nil {
            if started < total {
                group.addTask { try await send() }
                started += 1
            }
        }
    }
}

/// Opens connections (handshakes included) and warms the code paths of every client before the
/// first block, 16 in flight at the end so that each client has its full pool.
func warmUp(_ sends: [@Sendable () async throws -> Void]) async throws {
    for send in sends {
        try await inFlight(300, width: 1, send)
        try await inFlight(600, width: 16, send)
    }
}
