extension Task where Failure == Never {
    /// Runs `operation` in a new task that starts on the calling thread and leaves it only at
    /// its first suspension (`Task.immediate`, where the compiler and the runtime have it), so
    /// that a request reaches its transport without waiting for a thread of the cooperative pool.
    @discardableResult
    static func startingNow(_ operation: @escaping @Sendable () async -> Success) -> Task<Success, Never> {
        // `Task.immediate` is in the Swift 6.2 standard library: Swift 6.0 and 6.1 (Xcode 16)
        // cannot name it, whatever `#available` says at run time (Scripts/check-availability).
        #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }
}
