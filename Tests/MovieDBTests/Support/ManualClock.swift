import Foundation

/// The real time plus an offset the test moves by hand, for an `HTTPCache`: a response's age
/// passes its `max-age` at once, while the server's `Date` headers stay consistent with it.
final class ManualClock: @unchecked Sendable {
    // @unchecked: `offset` is read and written only under `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    var now: Date { Date() + lock.withLock { offset } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { offset += seconds }
    }

    var read: @Sendable () -> Date { { [self] in now } }
}
