/// How far an upload or download has got.
///
/// ```swift
/// let response = try await router.request(.downloadPoster(id: 550, to: destination)) { progress in
///     print(progress.fractionCompleted.map { "\(Int($0 * 100)) %" } ?? "\(progress.completedBytes) bytes")
/// }
/// ```
public struct TransferProgress: Sendable, Equatable {
    /// Bytes sent (upload) or received (download) so far.
    public let completedBytes: Int64
    /// The expected total, or `nil` when the server did not say (a chunked response).
    public let totalBytes: Int64?

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes`, from 0 to 1; `nil` while the total is unknown. Exactly 1.0
    /// in the last event of a successful transfer, the total being known by then.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}

/// Hands progress to the caller monotonically: retries and resumed downloads never make it go
/// back, and a successful transfer always ends with an event at exactly 1.0.
final class ProgressReporter: Sendable {
    private let handler: @Sendable (TransferProgress) -> Void
    private let last = Locked<TransferProgress?>(nil)

    init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.handler = handler
    }

    func report(completed: Int64, total: Int64?) {
        let progress = TransferProgress(completedBytes: completed, totalBytes: total)
        let shouldReport = last.withLock { last -> Bool in
            if let previous = last {
                guard progress != previous, progress.completedBytes >= previous.completedBytes else { return false }
                if let now = progress.fractionCompleted, let before = previous.fractionCompleted, now < before { return false }
            }
            last = progress
            return true
        }
        if shouldReport { handler(progress) }
    }

    /// Reports completion: every byte of the total, at exactly 1.0.
    func finish(total: Int64) {
        let completed = max(total, last.withLock { $0?.completedBytes ?? 0 })
        report(completed: completed, total: completed)
    }
}
