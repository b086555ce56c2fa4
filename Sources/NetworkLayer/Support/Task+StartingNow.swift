extension Task where Failure == Never {
    /// Runs `operation` in a new task that starts on the calling thread and leaves it only at
    /// its first suspension (`Task.immediate`, where the runtime has it), so that a request
    /// reaches its transport without waiting for a thread of the cooperative pool.
    @discardableResult
    static func startingNow(_ operation: @escaping @Sendable () async -> Success) -> Task<Success, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
