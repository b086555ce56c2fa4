import Foundation

extension Data {
    /// `count` bytes, byte `i` being `UInt8(truncatingIfNeeded: (i &* step) % modulo)` (no
    /// modulo when `nil`): a body whose corruption or reordering a digest shows.
    ///
    /// Written into one buffer: `Data((0..<n).map { … })` runs unspecialized in a debug build,
    /// at about a microsecond a byte, and 8 MB of it held one of the cooperative pool's two
    /// threads for seconds, long enough for other suites' requests to pass their deadlines
    /// (gdb, 2026-11-27).
    public static func bytePattern(count: Int, step: Int = 1, modulo: Int? = nil) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            // The modulo is decided once, not per byte: an Optional's map per byte is itself a
            // closure call in a debug build.
            let divisor = modulo ?? 0
            var index = 0
            while index < count {
                let value = index &* step
                base[index] = UInt8(truncatingIfNeeded: divisor > 0 ? value % divisor : value)
                index += 1
            }
        }
        return data
    }
}
