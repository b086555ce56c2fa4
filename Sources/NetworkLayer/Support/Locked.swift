import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a lock, for the little shared mutable state the package has
/// (a request's outcome, a router's in-flight requests).
///
/// `@unchecked Sendable` is honest here: every access to the value goes through `withLock`.
/// Copies share one value and one lock. Not `Mutex`, which needs macOS 15 / iOS 18; not
/// `NSLock`, which costs two more allocations and an Objective-C object per lock: a request
/// makes several of these, and with NSLock they were a tenth of a stubbed request's time.
package struct Locked<Value>: @unchecked Sendable {
    /// The value and a `pthread_mutex_t` in one allocation, the mutex at a stable address.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        _ = storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            return pthread_mutex_init(mutex, nil)
        }
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
