import Foundation

// The interleaving helpers are the root package's Benchmarks/Interleaved.swift, linked here:
// this package cannot import an executable target of the library's package.

func row(_ name: String, _ value: String) {
    print(name.padding(toLength: 58, withPad: " ", startingAt: 0) + value)
}

func format(_ value: Double, _ digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}
