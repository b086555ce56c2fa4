import Foundation

/// Wall-clock seconds for `body`, repeated `iterations` times; the best of `rounds` runs,
/// because the slower rounds measure the machine, not the code.
func measure(iterations: Int, rounds: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            try body()
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best = min(best, elapsed)
    }
    return best
}

/// The async form of ``measure(iterations:rounds:_:)``.
func measureAsync(rounds: Int = 3, _ body: () async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// The process's peak resident set size in MiB (Linux: VmHWM in /proc/self/status).
func peakRSSMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
        return kilobytes.map { $0 / 1024 }
    }
    return nil
}

func row(_ name: String, _ value: String) {
    print(name.padding(toLength: 58, withPad: " ", startingAt: 0) + value)
}

func format(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}
