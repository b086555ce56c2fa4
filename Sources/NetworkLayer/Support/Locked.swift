import Foundation

/// A value guarded by a lock, for the little shared mutable state the package has
/// (a request's outcome, a router's in-flight requests).
///
/// `@unchecked Sendable` is honest here: every access to `value` goes through `withLock`.
/// A class of our own rather than `Mutex`, which needs macOS 15 / iOS 18.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
